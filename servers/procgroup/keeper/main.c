// elicitdesk-keeper: the keeper (../keeper_linux.c) as an executable of its
// own, which `make install` puts beside elicitdesk and Start runs in place
// of elicitdesk itself. Built from the same source, it maps libc alone:
// started as elicitdesk, ld.so loads and relocates libGL, libX11... first,
// some 420 kB of private pages in every keeper, which this one does not
// write (about 100 kB of its own).
//
// Build: cc -O2 -o elicitdesk-keeper main.c (the Makefile's build).

#include "../keeper_linux.c" // stdio.h too, after its _GNU_SOURCE

// main runs only when the constructor did not take the process over: not
// started by Start.
int main(void) {
	fputs(KEEPER_NAME ": runs only as elicitdesk starts it, for a stdio server\n", stderr);
	return 2;
}
