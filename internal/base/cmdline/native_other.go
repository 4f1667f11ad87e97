//go:build !windows

package cmdline

func join(argv []string) string           { return JoinPOSIX(argv) }
func split(line string) ([]string, error) { return SplitPOSIX(line) }
