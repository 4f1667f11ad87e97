// Package jsonnum is the one rule, shared by the wire and the forms, for
// which JSON numbers from a server are read at all.
package jsonnum

import (
	"math"
	"regexp"
	"strconv"
	"strings"
)

// Problem says why text is not a number kept, or "" when it is one.
type Problem string

const (
	OK        Problem = ""
	NotNumber Problem = "not a number"
	TooLarge  Problem = "too large"
	TooSmall  Problem = "too close to zero"
	TooLong   Problem = "too long"
)

// Range says which numbers Check keeps, for messages.
const Range = "a 64-bit float, what most programs read numbers into, holds about ±1.8e308 down to 4.9e-324, and a number here has at most 400 characters"

// MaxText bounds the characters of a number: exact arithmetic (big.Rat)
// spends memory in proportion to them, and refuses exponents past 1e6.
const MaxText = 400

// syntax is the number grammar of RFC 8259.
var syntax = regexp.MustCompile(`^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$`)

// Check reads text as JSON number text. It refuses numbers a float64 cannot
// hold (other programs read them as infinity or zero) and, checking that
// first, text longer than MaxText.
func Check(text string) Problem {
	if !syntax.MatchString(text) {
		return NotNumber
	}
	if len(text) > MaxText {
		return TooLong
	}
	x, err := strconv.ParseFloat(text, 64)
	if err != nil || math.IsInf(x, 0) {
		return TooLarge
	}
	mantissa, _, _ := strings.Cut(strings.ToLower(text), "e")
	if x == 0 && strings.Trim(mantissa, "-0.") != "" {
		return TooSmall
	}
	return OK
}
