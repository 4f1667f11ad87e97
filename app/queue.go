package app

// queue decides which requests have a window: at most max at once, the
// rest waiting in arrival order, so a flood of requests does not bury the
// desktop in windows.
type queue[T comparable] struct {
	max     int
	open    []T
	waiting []T
}

// add takes in a new request and reports whether it gets a window now.
func (q *queue[T]) add(r T) bool {
	if len(q.open) < q.max {
		q.open = append(q.open, r)
		return true
	}
	q.waiting = append(q.waiting, r)
	return false
}

// promote moves r from waiting to open, for a request the person picks out
// of the tray menu: their choice goes past the limit.
func (q *queue[T]) promote(r T) bool {
	if !remove(&q.waiting, r) {
		return false
	}
	q.addOpen(r)
	return true
}

// addOpen takes in r with a window whatever the limit, for what the person
// asked for themselves.
func (q *queue[T]) addOpen(r T) { q.open = append(q.open, r) }

// remove forgets r, open or waiting, and returns the waiting requests that
// now get a window, oldest first.
func (q *queue[T]) remove(r T) []T {
	if !remove(&q.open, r) {
		remove(&q.waiting, r)
	}
	return q.fill()
}

// setMax changes the limit; a lower one leaves open windows open.
func (q *queue[T]) setMax(n int) []T {
	q.max = n
	return q.fill()
}

func (q *queue[T]) fill() []T {
	var next []T
	for len(q.open) < q.max && len(q.waiting) > 0 {
		r := q.waiting[0]
		q.waiting = q.waiting[1:]
		q.open = append(q.open, r)
		next = append(next, r)
	}
	return next
}

// all lists every request, open ones first, each group in arrival order.
func (q *queue[T]) all() []T {
	return append(append([]T(nil), q.open...), q.waiting...)
}

func (q *queue[T]) len() int { return len(q.open) + len(q.waiting) }

// opened is how many requests have a window.
func (q *queue[T]) opened() int { return len(q.open) }

func remove[T comparable](s *[]T, r T) bool {
	for i, x := range *s {
		if x == r {
			*s = append((*s)[:i], (*s)[i+1:]...)
			return true
		}
	}
	return false
}
