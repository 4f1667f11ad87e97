// Package inherited keeps the descriptors a process was started with
// beyond stdin, stdout and stderr from going further. A host may start
// the bridge holding one of its own pipes without close-on-exec; the core
// the bridge starts, and every process the core starts, would then hold
// that pipe for hours, and a host that waits for it to close would hang.
package inherited

// Seal marks every descriptor above stderr close-on-exec. It is called
// first thing, before the process opens any of its own that a child must
// get (those go through os/exec's ExtraFiles, which are unaffected).
func Seal() { seal() }
