package atspi

import "golang.org/x/sys/unix"

// onUIThread is whether the caller runs on the process's first thread,
// where Fyne's GLFW driver runs its loop.
func onUIThread() bool { return unix.Gettid() == unix.Getpid() }
