//go:build linux && cgo

// The keeper: this executable run again by Start with argv[0] KEEPER_NAME
// and argv[1:] the command's path and argv. It starts the command in a
// process group of its own, reports on fd 3, ends the whole group when its
// own parent dies, kills the group once the command has exited, and exits
// as the command did.
//
// In the app's binary it is taken over in a constructor, before the Go
// runtime starts: the Go runtime would run every package's init (Fyne,
// sqlite...), and a keeper would hold some 30 MB to wait for one process;
// elicitdesk-keeper (keeper/main.c) takes it over from main. Written with no signal
// handler at all: the signals it waits for are blocked and taken with
// sigwaitinfo, so nothing here runs asynchronously.

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "keeper_linux.h"

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

// reap_others reaps every exited child of the keeper but the command: a
// process that left the command's group and outlived its parent, handed
// to the keeper, a child subreaper. The command, once exited, stays
// unreaped: its pid, so its group, is nobody else's until then.
static void reap_others(pid_t pid) {
	for (;;) {
		siginfo_t info;
		memset(&info, 0, sizeof info);
		if (waitid(P_ALL, 0, &info, WEXITED | WNOWAIT | WNOHANG) < 0) {
			if (errno == EINTR)
				continue;
			return; // ECHILD
		}
		if (info.si_pid == 0 || info.si_pid == pid)
			return;
		while (waitpid(info.si_pid, NULL, 0) < 0 && errno == EINTR) {
		}
	}
}

// kill_children sends SIGKILL to every child of the keeper, and reports
// whether it could list them (a kernel without CONFIG_PROC_CHILDREN).
static int kill_children(void) {
	char path[64];
	snprintf(path, sizeof path, "/proc/self/task/%d/children", (int)getpid()); // the keeper's one thread
	FILE *f = fopen(path, "r");
	if (f == NULL)
		return 0;
	int child;
	while (fscanf(f, "%d", &child) == 1)
		kill(child, SIGKILL);
	fclose(f);
	return 1;
}

// end_rest kills whatever is left below the keeper once the command's
// group is killed: the processes that left the group (setsid, setpgid) are
// handed to the keeper as their parents die, and killed in turn. It
// returns when the keeper has no child left, each reaped; or at once
// where the keeper cannot list its children, leaving them to init as
// before the keeper was a subreaper.
static void end_rest(void) {
	while (kill_children()) {
		if (waitpid(-1, NULL, 0) < 0 && errno == ECHILD)
			return;
	}
}

// end_like kills the exited command's group (its children: the command is
// gone) and what left the group, reaps the command and ends the keeper as
// it ended, so that the caller's Wait tells its exit code or signal as if
// there were no keeper.
static void end_like(pid_t pid) {
	int status = 0;
	kill(-pid, SIGKILL);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
	}
	end_rest();
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
	// A process that leaves the command's group, with setsid or setpgid,
	// is out of reach of the signals to the group; as a subreaper the
	// keeper gets it once its parent dies, and ends it with the rest.
	prctl(PR_SET_CHILD_SUBREAPER, 1);

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

	for (;;) {
		int sig = sigwaitinfo(&waited, NULL);
		if (sig < 0)
			continue; // EINTR
		if (sig == SIGCHLD) {
			reap_others(pid); // no zombie stays
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
		end_rest();
		_exit(1); // nobody is left to read it
	}
}

// keep_if_keeper becomes the keeper when argv says so, and returns when
// it does not.
static void keep_if_keeper(int argc, char **argv, char **envp) {
	if (argc > 2 && strcmp(argv[0], KEEPER_NAME) == 0)
		keep(argv[1], argv + 2, envp);
}

#ifndef KEEPER_MAIN
#ifndef __GLIBC__
#error "the keeper reads its arguments as glibc passes them to constructors"
#endif
// keeper takes over a keeper's process in the app's binary, before main
// and the Go runtime; glibc passes main's arguments to constructors.
__attribute__((constructor)) static void keeper(int argc, char **argv, char **envp) {
	keep_if_keeper(argc, argv, envp);
}
#endif
