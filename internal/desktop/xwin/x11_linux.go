//go:build linux && !wayland

package xwin

// #cgo pkg-config: x11
// #include <X11/Xlib.h>
// #include <X11/Xatom.h>
// #include <X11/Xutil.h>
//
// static void set_input_hint(Display *d, Window w, Bool input) {
// 	XWMHints *h = XGetWMHints(d, w);
// 	if (h == NULL) h = XAllocWMHints();
// 	if (h != NULL) {
// 		h->flags |= InputHint;
// 		h->input = input;
// 		XSetWMHints(d, w, h);
// 		XFree(h);
// 	}
// }
//
// static void no_focus_on_map(Display *d, Window w) {
// 	long zero = 0;
// 	XChangeProperty(d, w, XInternAtom(d, "_NET_WM_USER_TIME", False), XA_CARDINAL, 32,
// 		PropModeReplace, (unsigned char *)&zero, 1);
// 	set_input_hint(d, w, False);
// 	XFlush(d);
// }
//
// static void dialog_type(Display *d, Window w) {
// 	Atom dialog = XInternAtom(d, "_NET_WM_WINDOW_TYPE_DIALOG", False);
// 	XChangeProperty(d, w, XInternAtom(d, "_NET_WM_WINDOW_TYPE", False), XA_ATOM, 32,
// 		PropModeReplace, (unsigned char *)&dialog, 1);
// 	XFlush(d);
// }
//
// static void takes_input(Display *d, Window w) {
// 	set_input_hint(d, w, True);
// 	XFlush(d);
// }
//
// // attention sets or clears a window's mark of wanting attention: the
// // ICCCM urgency hint, and EWMH _NET_WM_STATE_DEMANDS_ATTENTION.
// static void attention(Display *d, Window w, Bool on) {
// 	XWMHints *h = XGetWMHints(d, w);
// 	if (h == NULL && on) h = XAllocWMHints();
// 	if (h != NULL) {
// 		if (on) h->flags |= XUrgencyHint; else h->flags &= ~XUrgencyHint;
// 		XSetWMHints(d, w, h);
// 		XFree(h);
// 	}
// 	XEvent e = {0};
// 	e.xclient.type = ClientMessage;
// 	e.xclient.window = w;
// 	e.xclient.message_type = XInternAtom(d, "_NET_WM_STATE", False);
// 	e.xclient.format = 32;
// 	e.xclient.data.l[0] = on ? 1 : 0; // _NET_WM_STATE_ADD, _REMOVE
// 	e.xclient.data.l[1] = XInternAtom(d, "_NET_WM_STATE_DEMANDS_ATTENTION", False);
// 	e.xclient.data.l[3] = 1; // from an application
// 	XSendEvent(d, DefaultRootWindow(d), False, SubstructureNotifyMask | SubstructureRedirectMask, &e);
// 	XFlush(d);
// }
//
// static int focused(Display *d, Window w) {
// 	Window f;
// 	int revert;
// 	XGetInputFocus(d, &f, &revert);
// 	return f == w;
// }
//
// static void origin(Display *d, Window w, int *x, int *y) {
// 	Window child;
// 	if (!XTranslateCoordinates(d, w, DefaultRootWindow(d), 0, 0, x, y, &child)) *x = *y = 0;
// }
//
// static int mapped(Display *d, Window w) {
// 	XWindowAttributes a;
// 	return XGetWindowAttributes(d, w, &a) && a.map_state != IsUnmapped;
// }
import "C"

import (
	"unsafe"

	"github.com/go-gl/glfw/v3.4/glfw"
)

// display is GLFW's own connection: the window is its, and so are the
// calls on the main thread.
func display() *C.Display { return (*C.Display)(unsafe.Pointer(glfw.GetX11Display())) }

func noFocusOnMap(w uintptr)    { C.no_focus_on_map(display(), C.Window(w)) }
func takesInput(w uintptr)      { C.takes_input(display(), C.Window(w)) }
func dialogType(w uintptr)      { C.dialog_type(display(), C.Window(w)) }
func demandAttention(w uintptr) { C.attention(display(), C.Window(w), C.True) }
func calm(w uintptr)            { C.attention(display(), C.Window(w), C.False) }
func mapped(w uintptr) bool     { return C.mapped(display(), C.Window(w)) != 0 }
func focused(w uintptr) bool    { return C.focused(display(), C.Window(w)) != 0 }

func origin(w uintptr) (x, y int) {
	var cx, cy C.int
	C.origin(display(), C.Window(w), &cx, &cy)
	return int(cx), int(cy)
}
