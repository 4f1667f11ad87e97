// Package xwin asks the desktop, the X11 way, to treat a window the app
// opened by itself as a request for the person's attention, not for their
// keyboard: the window appears without taking the focus from the
// application the person is typing in (EWMH _NET_WM_USER_TIME 0, read by
// the window manager when the window is first mapped) and is marked as
// wanting attention (the ICCCM urgency hint and EWMH
// _NET_WM_STATE_DEMANDS_ATTENTION), which taskbars show by flashing it.
//
// Fyne has no word for either, and its window becomes an X11 window only
// inside its first Show, which also maps it; Quiet therefore hooks the one
// step of that Show that runs our code between the two: the window's first
// layout pass measuring its content. Elsewhere (Wayland, where a
// compositor gives new windows the focus only with an activation token the
// app never asks for; Windows and macOS, whose request windows are shown
// by Fyne without activation on the platforms' own rules) both calls do
// nothing.
package xwin
