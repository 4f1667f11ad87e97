//go:build ci || android || ios || mobile || wasm || test_web_driver || tamago || noos || tinygo

package screen

import "fyne.io/fyne/v2"

// Find reports false: this build's Fyne driver is not GLFW's, and the
// window system places and sizes windows itself.
func Find(fyne.App) (Screen, bool) { return Screen{}, false }
