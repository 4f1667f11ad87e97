// Package console lets a Windows GUI program print to the terminal it
// was started from.
//
// Elicit Desk is built for Windows as a GUI program (-H windowsgui), so
// that started by the Run key, from Explorer or by a host as a bridge it
// shows no console window. Windows gives such a program no console, and
// a terminal that starts it no standard handles: Attach connects the ones
// missing to the terminal's console. Handles that are there, such as the
// pipes a host starts the bridge with or a file the output is redirected
// to, are kept. cmd.exe and PowerShell do not wait for a GUI program: the
// prompt comes back at once, and the output follows it.
package console
