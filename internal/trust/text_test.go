package trust

import "testing"

func TestText(t *testing.T) {
	for _, tt := range readTextCases(t) {
		t.Run(tt.name, func(t *testing.T) {
			got := Text(tt.in)
			if got != tt.want {
				t.Errorf("Text(%+q) = %+q, want %+q", tt.in, got, tt.want)
			}
			if again := Text(got); again != got {
				t.Errorf("Text is not idempotent: %+q then %+q", got, again)
			}
		})
	}
}
