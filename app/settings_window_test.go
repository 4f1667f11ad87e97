package app

import (
	"strings"
	"testing"
)

func TestWaitingHintPromisesNoMissingTray(t *testing.T) {
	if !strings.Contains(waitingHint(true), "tray") || strings.Contains(waitingHint(false), "tray") {
		t.Errorf("hints: %q, %q", waitingHint(true), waitingHint(false))
	}
}
