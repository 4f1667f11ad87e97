package cmdline

func join(argv []string) string           { return JoinWindows(argv) }
func split(line string) ([]string, error) { return SplitWindows(line) }
