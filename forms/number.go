package forms

import (
	"encoding/json"
	"math"
	"math/big"
	"strconv"

	"github.com/elicitdesk/elicitdesk/internal/jsonnum"
)

// ExactNumber is a JSON number kept exactly: the text as it was written, which
// is what is shown and sent, and its value, which is what is compared. A
// float64 would turn 9007199254740993 into …992.
type ExactNumber struct {
	text  string
	value *big.Rat
}

// String is the number as it was written.
func (n *ExactNumber) String() string { return n.text }

// Rat returns the exact value of n; the caller must not change it.
func (n *ExactNumber) Rat() *big.Rat { return n.value }

// parseExact reads JSON number text exactly, if jsonnum keeps it.
func parseExact(text string) (*ExactNumber, jsonnum.Problem) {
	if problem := jsonnum.Check(text); problem != jsonnum.OK {
		return nil, problem
	}
	r, ok := new(big.Rat).SetString(text)
	if !ok {
		return nil, jsonnum.NotNumber
	}
	return &ExactNumber{text: text, value: r}, jsonnum.OK
}

// exactValue returns v, a number as encoding/json decodes it, exactly.
func exactValue(v any) (*ExactNumber, bool) {
	var text string
	switch x := v.(type) {
	case json.Number:
		text = x.String()
	case float64:
		if math.IsInf(x, 0) || math.IsNaN(x) {
			return nil, false
		}
		text = strconv.FormatFloat(x, 'g', -1, 64)
	case int:
		text = strconv.Itoa(x)
	case int64:
		text = strconv.FormatInt(x, 10)
	default:
		return nil, false
	}
	n, problem := parseExact(text)
	return n, problem == jsonnum.OK
}

// ratText writes r exactly in decimal, as short as it goes. A number read
// from JSON has a finite decimal expansion, of at most as many digits as its
// text; anything else is written as a fraction.
func ratText(r *big.Rat) string {
	if r.IsInt() {
		return r.Num().String()
	}
	for digits := 1; digits <= jsonnum.MaxText; digits++ {
		s := r.FloatString(digits)
		if back, ok := new(big.Rat).SetString(s); ok && back.Cmp(r) == 0 {
			return s
		}
	}
	return r.RatString()
}

// ceilRat returns the smallest integer at or above r.
func ceilRat(r *big.Rat) *big.Int {
	q, m := new(big.Int).DivMod(r.Num(), r.Denom(), new(big.Int))
	if m.Sign() != 0 {
		q.Add(q, big.NewInt(1))
	}
	return q
}
