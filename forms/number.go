package forms

import (
	"encoding/json"
	"math"
	"math/big"
	"strconv"

	"github.com/elicitdesk/elicitdesk/internal/base/jsonnum"
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

// ratText writes r exactly in decimal, as short as it goes: a denominator
// of 2^a·5^b needs max(a, b) digits after the point. A number whose decimal
// expansion does not end, which no JSON text can be, is written as a
// fraction.
func ratText(r *big.Rat) string {
	if r.IsInt() {
		return r.Num().String()
	}
	d := new(big.Int).Set(r.Denom())
	twos := int(d.TrailingZeroBits())
	d.Rsh(d, uint(twos))
	fives := 0
	five, rem := big.NewInt(5), new(big.Int)
	for {
		q, m := new(big.Int).QuoRem(d, five, rem)
		if m.Sign() != 0 {
			break
		}
		d, fives = q, fives+1
	}
	if d.Cmp(big.NewInt(1)) != 0 {
		return r.RatString()
	}
	return r.FloatString(max(twos, fives))
}

// ceilRat returns the smallest integer at or above r.
func ceilRat(r *big.Rat) *big.Int {
	q, m := new(big.Int).DivMod(r.Num(), r.Denom(), new(big.Int))
	if m.Sign() != 0 {
		q.Add(q, big.NewInt(1))
	}
	return q
}
