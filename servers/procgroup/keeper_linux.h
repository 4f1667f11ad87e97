// What Start and the keeper (keeper_linux.c) agree on.

// KEEPER_NAME is the argv[0] under which Start runs this executable again
// as a keeper; ps shows it before the command kept.
#define KEEPER_NAME "elicitdesk-keeper"

// KEEPER_ORPHAN_GRACE_MS is how long the group of a keeper whose parent
// died gets between SIGTERM and SIGKILL. A host that SIGKILLs the bridge
// may have sent SIGTERM first (Codex: SIGKILL 42 ms after it), and the
// bridge then passed it on at once; 40 ms more keeps the end of the whole
// group within 100 ms of the host's first signal.
#define KEEPER_ORPHAN_GRACE_MS 40
