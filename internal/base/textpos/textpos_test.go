package textpos

import "testing"

func TestLineColumn(t *testing.T) {
	tests := []struct {
		name      string
		src       string
		off       int
		line, col int
	}{
		{"start", "abc", 0, 1, 1},
		{"within the first line", "abc", 2, 1, 3},
		{"after a newline", "ab\ncd", 3, 2, 1},
		{"characters, not bytes", "é\nàbc", 5, 2, 2},
		{"past the end", "ab\nc", 99, 2, 2},
		{"before the start", "ab", -1, 1, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if line, col := LineColumn([]byte(tt.src), tt.off); line != tt.line || col != tt.col {
				t.Errorf("LineColumn(%q, %d) = %d:%d, want %d:%d", tt.src, tt.off, line, col, tt.line, tt.col)
			}
		})
	}
}
