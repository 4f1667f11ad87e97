// Package deskclient is the bridge's client to the running core (the
// desk): it reaches the core over the private endpoint, has the session
// bus start it (or starts it itself) when it does not run, asks it the
// person's questions, lists the bridge's sessions in it, and keeps in
// History what no window could show, handing each such entry to the core,
// History's one writer, when one runs.
package deskclient
