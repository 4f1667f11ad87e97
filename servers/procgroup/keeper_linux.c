//go:build linux && cgo

// The keeper: this executable run again by Start with argv[0] KEEPER_NAME
// and argv[1:] the command's path and argv. It starts the command in a
// process group of its own, reports on fd 3, ends the whole group when its
// own parent dies, kills the group once the command has exited, and exits
// as the command did.
//
// It is taken over in a constructor, before the Go runtime starts: the Go
// runtime would run every package's init (Fyne, sqlite...), and a keeper
// would hold some 30 MB to wait for one process. Written with no signal
// handler at all: the signals it waits for are blocked and taken with
// sigwaitinfo, so nothing here runs asynchronously.

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "keeper_linux.h"

#ifndef __GLIBC__
#error "the keeper reads its arguments as glibc passes them to constructors"
#endif

// The fd on which Start reads the report (procgroup_linux.go).
#define STATUS_FD 3

static void write_all(int fd, const char *buf, size_t n) {
	while (n > 0) {
		ssize_t w = write(fd, buf, n);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			return; // nobody reads it: the caller died
		}
		buf += w;
		n -= (size_t)w;
	}
}

// write_json_string writes s as a JSON string. Bytes that are not UTF-8
// stay as they are: Go's decoder makes them U+FFFD, as its encoder would.
static void write_json_string(int fd, const char *s) {
	const char *run = s;
	write_all(fd, "\"", 1);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c >= 0x20 && c != '"' && c != '\\')
			continue;
		char esc[7];
		write_all(fd, run, (size_t)(s - run));
		snprintf(esc, sizeof esc, "\\u%04x", c);
		write_all(fd, esc, 6);
		run = s + 1;
	}
	write_all(fd, run, (size_t)(s - run));
	write_all(fd, "\"", 1);
}

// report_failed writes the report of a command that did not start as
// Start reads it: the *fs.PathError os/exec gives.
static void report_failed(const char *path, int err) {
	static const char head[] = "{\"failed\":{\"op\":\"fork/exec\",\"path\":";
	char tail[32];
	write_all(STATUS_FD, head, sizeof head - 1);
	write_json_string(STATUS_FD, path);
	write_all(STATUS_FD, tail, (size_t)snprintf(tail, sizeof tail, ",\"errno\":%d}}\n", err));
}

// exec_child runs in the forked child: it becomes the command, or returns
// why not. Like os/exec with Setpgid and Pdeathsig: SIGKILL.
static int exec_child(const char *path, char *const argv[], char *const envp[], pid_t keeper,
                      const sigset_t *mask) {
	if (setpgid(0, 0) < 0)
		return errno;
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0)
		return errno;
	if (getppid() != keeper) // died before the line above: no signal comes
		kill(getpid(), SIGKILL);
	// As the Go keeper left them: every signal at its default action (only
	// an ignored one would outlive execve), and the mask the keeper got.
	for (int sig = 1; sig < NSIG; sig++)
		signal(sig, SIG_DFL); // fails for SIGKILL, SIGSTOP, glibc's own: no matter
	sigprocmask(SIG_SETMASK, mask, NULL);
	execve(path, argv, envp); // not execvpe: no sh for a file that is not a program, as os/exec
	return errno;
}

// exited reports whether the process pid has exited, leaving it unreaped:
// its pid, so its group, is nobody else's until it is reaped.
static int exited(pid_t pid) {
	siginfo_t info;
	int r;
	memset(&info, 0, sizeof info);
	do
		r = waitid(P_PID, (id_t)pid, &info, WEXITED | WNOWAIT | WNOHANG);
	while (r < 0 && errno == EINTR);
	return r == 0 && info.si_pid != 0;
}

// end_like kills the exited command's group (its children: the command is
// gone), reaps the command and ends the keeper as it ended, so that the
// caller's Wait tells its exit code or signal as if there were no keeper.
static void end_like(pid_t pid) {
	int status = 0;
	kill(-pid, SIGKILL);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
	}
	if (WIFSIGNALED(status)) {
		int sig = WTERMSIG(status);
		sigset_t only;
		signal(sig, SIG_DFL);
		prctl(PR_SET_DUMPABLE, 0); // no core: the command's crash is not the keeper's
		raise(sig);                // pending if blocked: unblocked next
		sigemptyset(&only);
		sigaddset(&only, sig); // only it: a pending SIGPIPE must not end us first
		sigprocmask(SIG_UNBLOCK, &only, NULL);
		_exit(128 + sig); // a signal that would not end us
	}
	_exit(WEXITSTATUS(status));
}

// await_exit waits up to ms milliseconds for the process pid to exit.
static void await_exit(pid_t pid, long ms) {
	struct timespec now, end;
	sigset_t chld;
	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	clock_gettime(CLOCK_MONOTONIC, &end);
	end.tv_nsec += ms * 1000000;
	end.tv_sec += end.tv_nsec / 1000000000;
	end.tv_nsec %= 1000000000;
	while (!exited(pid)) {
		clock_gettime(CLOCK_MONOTONIC, &now);
		struct timespec left = {end.tv_sec - now.tv_sec, end.tv_nsec - now.tv_nsec};
		if (left.tv_nsec < 0) {
			left.tv_sec--;
			left.tv_nsec += 1000000000;
		}
		if (left.tv_sec < 0)
			return;
		sigtimedwait(&chld, NULL, &left); // EINTR, EAGAIN: looked at again
	}
}

// shed drops from the keeper's page tables the mappings it has not written
// and cannot write: libGL, libX11..., most of libc and of this executable,
// which ld.so mapped and read before the keeper could run. They are 3 MB of
// the 3.7 MB RSS that ps and top would show, but no memory of the keeper's
// own: page-cache pages, which the core maps too. The keeper sees no
// change: a page it touches again comes back from the file, as after the
// kernel reclaimed it (and the executable is linked with -z now, so that
// no lazy binding reads every library's symbols again). A mapping holding
// an anonymous page, in memory or swapped out (a GOT, once relocated), is
// left whole: the drop would lose what was written there.
static void shed(void) {
	// Dropped once smaps is read: stdio and sscanf would take libc's pages
	// back.
	struct {
		unsigned long start, end;
	} clean[512];
	size_t n = 0;
	FILE *smaps = fopen("/proc/self/smaps", "r");
	if (smaps == NULL)
		return;
	char line[4352]; // a header line: ranges, flags, and a path up to PATH_MAX
	unsigned long start = 0, end = 0;
	int writable = 1, zeros = 0; // the mapping's: zeros counts its Anonymous and Swap at 0
	int whole = 1;               // line holds the start of a line
	while (n < sizeof clean / sizeof clean[0] && fgets(line, sizeof line, smaps) != NULL) {
		int at_start = whole;
		unsigned long lo, hi, kb;
		char perms[5];
		whole = strchr(line, '\n') != NULL;
		if (!at_start)
			continue; // the rest of a path longer than the buffer
		if (sscanf(line, "%lx-%lx %4s ", &lo, &hi, perms) == 3) { // the next mapping's header
			start = lo;
			end = hi;
			// Not writable: nothing, stdio included, can write a page
			// there between this read and the drop.
			writable = perms[1] == 'w';
			zeros = 0;
		} else if (sscanf(line, "Anonymous: %lu kB", &kb) == 1 || sscanf(line, "Swap: %lu kB", &kb) == 1) {
			zeros += kb == 0; // an anonymous page swapped out is one too
		} else if (strncmp(line, "VmFlags:", 8) == 0 && !writable && zeros == 2) { // the mapping's last line
			clean[n].start = start;
			clean[n++].end = end;
		}
	}
	fclose(smaps);
	for (size_t i = 0; i < n; i++) // fails for [vvar]...: no matter
		madvise((void *)clean[i].start, clean[i].end - clean[i].start, MADV_DONTNEED);
}

// keep is the whole life of a keeper; it never returns.
static void keep(const char *path, char *const argv[], char *const envp[]) {
	// Read before the signals are blocked: a parent dead by then has sent
	// the SIGTERM (the keeper's parent-death signal) that ends this process
	// by default, before it starts anything.
	pid_t parent = getppid();
	// Named for top and ps -e, not "exe" after /proc/self/exe (cut to 15 bytes).
	prctl(PR_SET_NAME, KEEPER_NAME);

	// Blocked from here on, so that none is lost between two waits; SIGPIPE
	// too, so that a report nobody reads fails rather than ends the keeper.
	sigset_t waited, blocked, given;
	sigemptyset(&waited);
	sigaddset(&waited, SIGCHLD);
	sigaddset(&waited, SIGTERM);
	sigaddset(&waited, SIGINT);
	sigaddset(&waited, SIGHUP);
	blocked = waited;
	sigaddset(&blocked, SIGPIPE);
	sigprocmask(SIG_BLOCK, &blocked, &given);
	// An ignored SIGCHLD would have the kernel reap the command unseen.
	signal(SIGCHLD, SIG_DFL);

	// The child's execve closes this pipe's write end, or it writes why
	// it failed; fd 3 is the keeper's alone.
	int failed[2], err = 0;
	pid_t self = getpid(), pid = -1;
	fcntl(STATUS_FD, F_SETFD, FD_CLOEXEC);
	if (pipe2(failed, O_CLOEXEC) < 0) {
		err = errno;
	} else if ((pid = fork()) == 0) {
		err = exec_child(path, argv, envp, self, &given);
		write_all(failed[1], (const char *)&err, sizeof err);
		_exit(127);
	} else {
		if (pid < 0)
			err = errno;
		close(failed[1]);
		if (pid > 0) {
			while (read(failed[0], &err, sizeof err) < 0 && errno == EINTR) {
			}
			if (err != 0) // written by the child, which has exited: reap it
				while (waitpid(pid, NULL, 0) < 0 && errno == EINTR) {
				}
		}
		close(failed[0]);
	}
	if (err != 0) {
		report_failed(path, err);
		_exit(127);
	}
	char rep[32];
	write_all(STATUS_FD, rep, (size_t)snprintf(rep, sizeof rep, "{\"pid\":%d}\n", pid));
	// Only the command holds its streams now: the caller sees its stdout
	// end when it exits, and a write to its stdin fail.
	close(STATUS_FD);
	close(0);
	close(1);
	close(2);
	shed();

	for (;;) {
		int sig = sigwaitinfo(&waited, NULL);
		if (sig < 0)
			continue; // EINTR
		if (sig == SIGCHLD) {
			if (exited(pid))
				end_like(pid);
			continue; // stopped, continued
		}
		// SIGTERM is the parent-death signal, but it also comes when the
		// parent's thread that started us ends, the parent still running
		// (golang/go#27505: the Go runtime ends a thread whose locked
		// goroutine returns), or from a host that signals every process
		// below it, while the parent stops the group itself. Only a parent
		// that changed has died.
		if (getppid() == parent)
			continue;
		kill(-pid, SIGTERM);
		await_exit(pid, KEEPER_ORPHAN_GRACE_MS);
		kill(-pid, SIGKILL);
		_exit(1); // nobody is left to read it
	}
}

// keeper takes over a keeper's process, before main; glibc passes main's
// arguments to constructors.
__attribute__((constructor)) static void keeper(int argc, char **argv, char **envp) {
	if (argc > 2 && strcmp(argv[0], KEEPER_NAME) == 0)
		keep(argv[1], argv + 2, envp);
}
