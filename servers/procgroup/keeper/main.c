// elicitdesk-keeper: the keeper (../keeper_linux.c) as an executable of its
// own, which `make install` puts beside elicitdesk and Start runs in place
// of elicitdesk itself. Built from the same source and linked statically
// (musl-gcc -static, the Makefile's build), it maps nothing else: started as
// elicitdesk, ld.so loads and relocates libGL, libX11... first, some 420
// kB of private pages in every keeper; linked with a shared glibc, ld.so
// and the libc's relocations still make 92 kB. This one holds 12-16 kB.
// Any C compiler and libc build it: cc -O2 -o elicitdesk-keeper main.c.

#define KEEPER_MAIN // main takes the process over, not a constructor
#include "../keeper_linux.c" // stdio.h too, after its _GNU_SOURCE

int main(int argc, char **argv, char **envp) {
	keep_if_keeper(argc, argv, envp); // returns only when not started by Start
	fputs(KEEPER_NAME ": runs only as elicitdesk starts it, for a stdio server\n", stderr);
	return 2;
}
