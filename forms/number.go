package forms

import (
	"encoding/json"
	"math"
	"math/big"
	"regexp"
	"strconv"
	"strings"
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

// jsonNumberSyntax is the number grammar of RFC 8259.
var jsonNumberSyntax = regexp.MustCompile(`^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$`)

// numberProblem says why text is not a number the form can keep exactly,
// or "" when it is one.
type numberProblem string

const (
	numberOK       numberProblem = ""
	notNumber      numberProblem = "not a number"
	numberTooLarge numberProblem = "too large"
	numberTooSmall numberProblem = "too close to zero"
	numberTooLong  numberProblem = "too long"
)

// numberRange says which numbers parseExact keeps, for lint's messages.
const numberRange = "a 64-bit float, what most programs read numbers into, holds about ±1.8e308 down to 4.9e-324, and a number here has at most 400 characters"

// maxNumberText bounds the digits of a number, which big.Rat would
// otherwise spend memory on in proportion to.
const maxNumberText = 400

// parseExact reads JSON number text exactly. It refuses numbers a float64
// cannot hold (other programs read them as infinity or zero) and, checking
// that first, exponents that would make big.Rat build a huge value.
func parseExact(text string) (*ExactNumber, numberProblem) {
	if !jsonNumberSyntax.MatchString(text) {
		return nil, notNumber
	}
	if len(text) > maxNumberText {
		return nil, numberTooLong
	}
	x, err := strconv.ParseFloat(text, 64)
	if err != nil || math.IsInf(x, 0) {
		return nil, numberTooLarge
	}
	mantissa, _, _ := strings.Cut(strings.ToLower(text), "e")
	if x == 0 && strings.Trim(mantissa, "-0.") != "" {
		return nil, numberTooSmall
	}
	r, ok := new(big.Rat).SetString(text)
	if !ok {
		return nil, notNumber
	}
	return &ExactNumber{text: text, value: r}, numberOK
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
	return n, problem == numberOK
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
