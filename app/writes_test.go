package app

// Wait waits for the work under way; work asked for meanwhile starts
// after it.
func (w *writes) Wait() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.wg.Wait()
}
