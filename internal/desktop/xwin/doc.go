// Package xwin asks the desktop, the X11 way, to treat a window the app
// opened by itself as a request for the person's attention, not for their
// keyboard: the window appears without taking the focus from the
// application the person is typing in (EWMH _NET_WM_USER_TIME 0, read by
// the window manager when the window is first mapped) and is marked as
// wanting attention (the ICCCM urgency hint and EWMH
// _NET_WM_STATE_DEMANDS_ATTENTION), which taskbars show by flashing it.
//
// Not every window manager reads _NET_WM_USER_TIME: sway, for the X11
// windows Xwayland gives it, focuses every new window unless it takes no
// input (ICCCM WM_HINTS input false, without WM_TAKE_FOCUS). The window
// therefore appears taking no input, and takes it again QuietTime later,
// once the window manager has mapped it, so that the person can give it
// the keyboard.
//
// Fyne has no word for either, and its window becomes an X11 window only
// inside its first Show, which also maps it; Quiet therefore hooks the one
// step of that Show that runs our code between the two: the window's first
// layout pass measuring its content. Elsewhere both calls do nothing:
// Windows and macOS show the request windows without activation on the
// platforms' own rules; Wayland has no way to ask, which is why the app's
// windows are X11 ones wherever Xwayland runs (internal/corecmd windowsEnv).
package xwin
