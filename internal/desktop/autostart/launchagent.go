package autostart

import (
	"bytes"
	"encoding/xml"
	"strings"
)

// launchAgent renders e as a macOS LaunchAgent property list that runs
// e.Exec once at login.
func launchAgent(e Entry) []byte {
	var b bytes.Buffer
	text := func(s string) {
		xml.EscapeText(&b, []byte(s)) // never fails on a bytes.Buffer
	}
	b.WriteString(xml.Header)
	b.WriteString(`<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">` + "\n")
	b.WriteString("<plist version=\"1.0\">\n<dict>\n\t<key>Label</key>\n\t<string>")
	text(e.ID)
	b.WriteString("</string>\n\t<key>ProgramArguments</key>\n\t<array>\n")
	for _, a := range e.Exec {
		b.WriteString("\t\t<string>")
		text(a)
		b.WriteString("</string>\n")
	}
	b.WriteString("\t</array>\n\t<key>RunAtLoad</key>\n\t<true/>\n</dict>\n</plist>\n")
	return b.Bytes()
}

// launchAgentEnabled reports whether a LaunchAgent still starts: launchd
// skips one whose top-level Disabled key is true. A file that does not
// parse counts as there, as the entry is.
func launchAgentEnabled(data []byte) bool {
	d := xml.NewDecoder(bytes.NewReader(data))
	depth, inKey, key := 0, false, ""
	for {
		tok, err := d.Token()
		if err != nil {
			return true
		}
		switch t := tok.(type) {
		case xml.StartElement:
			switch {
			case depth == 1 && t.Name.Local == "key":
				inKey, key = true, ""
			case depth == 1:
				if strings.TrimSpace(key) == "Disabled" && t.Name.Local == "true" {
					return false
				}
				key = "" // the value of that key, read
			}
			if t.Name.Local == "dict" {
				depth++
			}
		case xml.EndElement:
			inKey = inKey && t.Name.Local != "key"
			if t.Name.Local == "dict" {
				depth--
			}
		case xml.CharData:
			if inKey {
				key += string(t)
			}
		}
	}
}
