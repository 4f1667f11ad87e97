package forms

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
)

// manyProperties is a schema of n string fields, every one required.
func manyProperties(n int) []byte {
	var b strings.Builder
	b.WriteString(`{"type":"object","properties":{`)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `"f%d":{"type":"string","title":"Field %d"}`, i, i)
	}
	b.WriteString(`},"required":[`)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Quote("f" + strconv.Itoa(i)))
	}
	b.WriteString(`]}`)
	return []byte(b.String())
}

// BenchmarkLintProperties shows that Lint's time grows linearly with the
// number of properties, however many a server sends: all these are over
// MaxFields and refused once read, and reading is linear.
func BenchmarkLintProperties(b *testing.B) {
	for _, n := range []int{10_000, 20_000, 40_000} {
		raw := manyProperties(n)
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			for b.Loop() {
				if _, err := Lint(raw); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
