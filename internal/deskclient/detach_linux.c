//go:build linux && cgo

// The detacher: this executable run again by startDetached with argv[0]
// DETACH_NAME and argv[1:] the app's path and argv. It starts the app in a
// session of its own and exits at once (the second fork of a double fork),
// so that the app is nobody's child: the kernel hands it to init or the
// nearest subreaper, and a host that ends the bridge, its group or its
// children does not end it. The app's standard streams are /dev/null, as
// os/exec leaves them when not set. It writes the app's pid on stdout and exits 0,
// or exits 127 saying on stderr why the app could not start.
//
// Taken over in a constructor, before the Go runtime starts, as the keeper
// is (servers/procgroup): the runtime would run every package's init to
// start one process.

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "detach_linux.h"

#ifndef __GLIBC__
#error "the detacher reads its arguments as glibc passes them to constructors"
#endif

static void detach(const char *path, char **argv, char **envp) {
	// The child's execve closes this pipe's write end, or it writes why
	// it failed.
	int failed[2];
	if (pipe2(failed, O_CLOEXEC) < 0) {
		perror(DETACH_NAME);
		_exit(127);
	}
	pid_t pid = fork();
	if (pid < 0) {
		perror(DETACH_NAME);
		_exit(127);
	}
	if (pid == 0) {
		setsid(); // no terminal, no group of the bridge's
		// Nothing of the bridge's: its stdout, this pipe to startDetached,
		// would stay open as long as the app runs.
		int null = open("/dev/null", O_RDWR);
		if (null >= 0) {
			dup2(null, 0);
			dup2(null, 1);
			dup2(null, 2);
			if (null > 2)
				close(null);
		}
		execve(path, argv, envp);
		int err = errno;
		(void)!write(failed[1], &err, sizeof err);
		_exit(127);
	}
	close(failed[1]);
	int err = 0;
	ssize_t n;
	do
		n = read(failed[0], &err, sizeof err);
	while (n < 0 && errno == EINTR);
	if (n == (ssize_t)sizeof err) {
		fprintf(stderr, "%s: %s\n", path, strerror(err));
		_exit(127);
	}
	printf("%d\n", (int)pid);
	_exit(fflush(stdout) == 0 ? 0 : 1);
}

__attribute__((constructor)) static void detacher(int argc, char **argv, char **envp) {
	if (argc > 2 && strcmp(argv[0], DETACH_NAME) == 0)
		detach(argv[1], argv + 2, envp);
}
