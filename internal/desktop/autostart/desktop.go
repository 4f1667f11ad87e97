package autostart

import (
	"bufio"
	"bytes"
	"strings"
)

// desktopFile renders e as an XDG autostart entry (Desktop Entry
// Specification 1.5).
func desktopFile(e Entry) []byte {
	return []byte("[Desktop Entry]\n" +
		"Type=Application\n" +
		"Name=" + escapeValue(e.Name) + "\n" +
		"Exec=" + execValue(e.Exec) + "\n" +
		"Icon=" + escapeValue(e.ID) + "\n" +
		"Terminal=false\n" +
		"X-GNOME-Autostart-enabled=true\n")
}

// execValue writes args as the value of an Exec key. Each argument is
// quoted where the specification reserves one of its characters, with ",
// `, $ and \ escaped inside the quotes; % is doubled so it is never read as
// a field code; and the whole then gets the escapes of any string value, so
// a literal backslash ends up as four.
func execValue(args []string) string {
	words := make([]string, len(args))
	for i, a := range args {
		a = strings.ReplaceAll(a, "%", "%%")
		if a != "" && !strings.ContainsAny(a, " \t\n\"'\\><~|&;$*?#()`") {
			words[i] = a
			continue
		}
		var b strings.Builder
		b.WriteByte('"')
		for _, r := range a {
			if strings.ContainsRune("\"`$\\", r) {
				b.WriteByte('\\')
			}
			b.WriteRune(r)
		}
		b.WriteByte('"')
		words[i] = b.String()
	}
	return escapeValue(strings.Join(words, " "))
}

// escapeValue applies the escapes of a string value: backslash, newline,
// tab and carriage return, and \s for a leading space, which would be
// trimmed otherwise.
func escapeValue(s string) string {
	s = strings.NewReplacer(`\`, `\\`, "\n", `\n`, "\t", `\t`, "\r", `\r`).Replace(s)
	if rest, ok := strings.CutPrefix(s, " "); ok {
		s = `\s` + rest
	}
	return s
}

// desktopEnabled reports whether an autostart entry still starts: desktops
// that turn one off without removing it write Hidden=true or
// X-GNOME-Autostart-enabled=false into it.
func desktopEnabled(data []byte) bool {
	group := ""
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if strings.HasPrefix(line, "[") {
			group = line
			continue
		}
		key, value, ok := strings.Cut(line, "=")
		if !ok || group != "[Desktop Entry]" {
			continue
		}
		switch strings.TrimSpace(key) + "=" + strings.TrimSpace(value) {
		case "Hidden=true", "X-GNOME-Autostart-enabled=false":
			return false
		}
	}
	return true
}
