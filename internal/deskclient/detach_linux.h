// What startDetached (detach_linux.go) and the detacher (detach_linux.c)
// agree on.

// DETACH_NAME is the argv[0] under which startDetached runs this
// executable again as the detacher.
#define DETACH_NAME "elicitdesk-detach"
