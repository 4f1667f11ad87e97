//go:build !headless

package cli

import (
	"context"
	"encoding/json"
	"errors"
	"io"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"

	"github.com/elicitdesk/elicitdesk/app"
	"github.com/elicitdesk/elicitdesk/app/hostsview"
	"github.com/elicitdesk/elicitdesk/assets"
	"github.com/elicitdesk/elicitdesk/forms"
	"github.com/elicitdesk/elicitdesk/forms/formview"
	"github.com/elicitdesk/elicitdesk/internal/base/build"
	"github.com/elicitdesk/elicitdesk/internal/base/untrusted"
)

// runPreview opens a schema as a form window and prints the person's answer
// as an ElicitResult. Without a file it shows the built-in demo form.
func runPreview(args []string, stdin io.Reader, stdout, stderr terminal) int {
	fs := stderr.FlagSet("preview")
	message := fs.String("message", "Please fill in this form.", "the `text` shown above the form")
	if code, done := parseMixed(fs, args, stdout, stderr); done {
		return code
	}
	if fs.NArg() > 1 {
		return misuse(fs, stderr, "takes one schema file at most, not %d", fs.NArg())
	}
	raw := assets.DemoForm
	if fs.NArg() == 1 {
		var err error
		if raw, err = readInput(fs.Arg(0), stdin); err != nil {
			stderr.Linef("elicitdesk preview: %s", err)
			return 2
		}
	}
	schema, err := forms.Parse(raw)
	if err != nil {
		stderr.Linef("elicitdesk preview: %s", err)
		if errors.As(err, new(*forms.SchemaError)) {
			return 1
		}
		return 2
	}

	a := app.NewFyne(appID, appName, build.Release)
	app.ApplyLook(context.Background(), a)
	w := a.NewWindow("Elicit Desk — form preview")
	v := formview.New(forms.NewForm(schema), untrusted.Text(*message), formview.Options{})
	v.OnResult = func(r forms.Result) {
		out, _ := json.Marshal(r)
		stdout.Linef("%s", json.RawMessage(out))
		a.Quit()
	}
	v.Install(w)
	w.SetContent(container.NewBorder(nil, hostsview.FormPanel(schema), nil, nil, v))
	w.Resize(fyne.NewSize(960, 720))
	w.CenterOnScreen() // where a person looks, not the window manager's corner
	w.ShowAndRun()
	return 0
}
