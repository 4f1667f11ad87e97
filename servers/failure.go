package servers

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"syscall"

	"github.com/elicitdesk/elicitdesk/internal/base/untrusted"
	"github.com/elicitdesk/elicitdesk/servers/link"
	"github.com/elicitdesk/elicitdesk/servers/rpc"
	"github.com/elicitdesk/elicitdesk/servers/signin"
)

// Explanation is a connection error in words a person can act on, with
// the technical chain behind it for those who want it.
type Explanation struct {
	// Summary says what happened and what to do. It is ours, but for the
	// parts a server wrote (its last line on stderr, an HTTP reason),
	// which have been through untrusted already: it is safe to show.
	Summary string
	// Details is the whole chain as the libraries wrote it; it holds what
	// the server sent, so it goes through untrusted to be shown.
	Details untrusted.Text
}

// Explained is an error already put in words, as another process that
// explained it sends it: Explain gives back its Explanation.
type Explained Explanation

func (e *Explained) Error() string { return string(e.Details) }

// Explain puts err, why a server could not be reached or went away, in
// plain words. stderr is what a stdio server last wrote there (Status.Stderr):
// its last line often says why it gave up. Errors it does not recognise are
// shown as they are, cut to untrusted.ProseBytes.
func Explain(err error, stderr string) Explanation {
	if err == nil {
		return Explanation{}
	}
	var told *Explained
	if errors.As(err, &told) {
		return Explanation(*told)
	}
	// The chain holds what the server said, which may be megabytes: an
	// explanation is shown and sent to the windows, so it is cut.
	chain := untrusted.Text(err.Error()).Cut(untrusted.ProseBytes)
	x := Explanation{Summary: explainSummary(err), Details: chain}
	if x.Summary == "" {
		x.Summary = chain.Block()
	}
	if words := LastWords(stderr); words != "" && wentAway(err) {
		if signalled(err) { // stopped from outside: its words may not say why
			x.Summary += " Its last words: " + untrusted.Text(words).Quote()
		} else { // why it gave up, in its words; the exit code is in Details
			x.Summary = stoppedSentence(err) + ": " + untrusted.Text(words).Quote() + "."
		}
	}
	return x
}

// stoppedSentence says that a server ended on its own, and when.
func stoppedSentence(err error) string {
	var start *StartError
	if errors.As(err, &start) {
		return "The server stopped during start-up"
	}
	return "The server stopped"
}

// signalled reports whether err says a stdio server was killed by a signal.
func signalled(err error) bool {
	var exit *exec.ExitError
	if !errors.As(err, &exit) {
		return false
	}
	ws, ok := exit.Sys().(syscall.WaitStatus)
	return ok && ws.Signaled()
}

// wentAway reports whether err says a stdio server ended, when its last
// words are worth showing.
func wentAway(err error) bool {
	var exit *exec.ExitError
	return errors.As(err, &exit) || closedEarly(err)
}

// closedEarly reports whether the other side closed the connection.
func closedEarly(err error) bool {
	return errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, ErrServerClosed) ||
		errors.Is(err, syscall.EPIPE) || errors.Is(err, os.ErrClosed) || errors.Is(err, rpc.ErrClosed)
}

// explainSummary is the sentence for err, or "" when it is not one we know.
// The order matters: the most specific cause in the chain wins.
func explainSummary(err error) string {
	during := ""
	var start *StartError
	if errors.As(err, &start) {
		during = " during start-up"
	}
	var (
		execErr *exec.Error
		exit    *exec.ExitError
		pathErr *fs.PathError
		dnsErr  *net.DNSError
		unknown x509.UnknownAuthorityError
		host    x509.HostnameError
		invalid x509.CertificateInvalidError
		record  tls.RecordHeaderError
		verify  *tls.CertificateVerificationError
	)
	var signIn *signin.Error
	switch {
	case errors.Is(err, signin.ErrSignInNeeded):
		return signInNeededSentence(err)
	case errors.As(err, &signIn):
		return "Sign-in failed: " + strings.TrimSuffix(untrusted.Text(signIn.Err.Error()).Cut(untrusted.ProseBytes).Line(), ".") + "."
	case errors.As(err, &execErr) && errors.Is(execErr.Err, exec.ErrNotFound):
		return fmt.Sprintf("The command %s was not found. Is it installed, and on the PATH Elicit Desk was started with?", quoteCommand(execErr.Name))
	case errors.As(err, &pathErr) && pathErr.Op == "fork/exec" && (errors.Is(err, fs.ErrPermission) || errors.Is(err, syscall.ENOEXEC)):
		return fmt.Sprintf("The command %s cannot be run: it is not a program, or you may not run it.", quoteCommand(pathErr.Path))
	case errors.As(err, &pathErr) && pathErr.Op == "fork/exec" && errors.Is(err, fs.ErrNotExist):
		return fmt.Sprintf("The command %s or the working directory does not exist.", quoteCommand(pathErr.Path))
	case errors.As(err, &exit):
		if ws, ok := exit.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			return fmt.Sprintf("The server was stopped by a signal (%s)%s.", ws.Signal(), during)
		}
		return fmt.Sprintf("The server exited with code %d%s.", exit.ExitCode(), during)
	case errors.Is(err, context.DeadlineExceeded) || isTimeout(err):
		return "The server did not answer in time" + during + ". It may be busy or starting slowly; it is tried again."
	case httpStatus(err) == http.StatusUnauthorized:
		return "The server answered 401: it needs sign-in or a token. Add the token under Headers, as Authorization: Bearer …"
	case errors.Is(err, errOldTransport):
		return "The server refused to start a session at this URL (an HTTP 4xx answer). Check the URL; an older server may need “HTTP with SSE (older)” under Connects by."
	case httpStatus(err) != 0:
		return statusSentence(httpStatus(err))
	case errors.As(err, &unknown) || errors.As(err, &verify) && errors.As(verify.Err, &unknown):
		return "The server's certificate is not signed by an authority this computer trusts, so the connection was not made."
	case errors.As(err, &host):
		return fmt.Sprintf("The server's certificate is for another name than %s, so the connection was not made. Check the host in the URL.", untrusted.Text(host.Host).Line())
	case errors.As(err, &invalid):
		return "The server's certificate is not valid (it may have expired), so the connection was not made."
	// net/http has no sentinel for this one, only its text.
	case errors.As(err, &record) || strings.Contains(err.Error(), "server gave HTTP response to HTTPS client"):
		return "The server does not speak HTTPS at this address. Try http:// instead of https://, or check the port."
	case errors.As(err, &dnsErr):
		return fmt.Sprintf("Can't find the host %s: check its name in the URL, and that this computer is online.", untrusted.Text(dnsErr.Name).Line())
	case errors.Is(err, syscall.ECONNREFUSED):
		return fmt.Sprintf("Can't reach %s: nothing is listening there. Is the server running?", address(err))
	case errors.Is(err, syscall.EHOSTUNREACH) || errors.Is(err, syscall.ENETUNREACH):
		return fmt.Sprintf("Can't reach %s: this computer has no route to it. Check the network.", address(err))
	case errors.Is(err, syscall.ECONNRESET):
		return "The server dropped the connection" + during + "."
	case closedEarly(err):
		return "The server closed the connection" + during + "."
	}
	return ""
}

// signInNeededSentence says that the server wants a sign-in, and why the
// saved one no longer does, when there was one.
func signInNeededSentence(err error) string {
	s := "The server needs you to sign in"
	if _, why, ok := strings.Cut(err.Error(), signin.ErrSignInNeeded.Error()+": "); ok {
		s += " again: " + strings.TrimSuffix(untrusted.Text(why).Line(), ".")
	}
	return s + ". Sign in opens your browser."
}

// isTimeout reports whether a network operation in err timed out.
func isTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}

// statusPattern finds the HTTP status in errors that carry it only in
// their text ("request failed with status 500", "unexpected status code:
// 403"), as another process's may.
var statusPattern = regexp.MustCompile(`\bstatus(?: code)?:? ([1-5][0-9][0-9])\b`)

// httpStatus is the HTTP status err reports, or 0.
func httpStatus(err error) int {
	var status *link.StatusError
	if errors.As(err, &status) {
		return status.Code
	}
	m := statusPattern.FindStringSubmatch(err.Error())
	if m == nil {
		return 0
	}
	n, _ := strconv.Atoi(m[1])
	return n
}

// statusSentence says what an HTTP error status means for a person.
func statusSentence(code int) string {
	said := fmt.Sprintf("The server answered %d (%s)", code, http.StatusText(code))
	switch {
	case code == http.StatusForbidden:
		return said + ": it refused access. The token may lack a permission, or be for another account."
	case code == http.StatusNotFound:
		return said + ": there is no MCP server at this URL. Check its path."
	case code == http.StatusMethodNotAllowed:
		return said + ": this URL does not take MCP requests. Check its path, or the transport under Connects by."
	case code >= 500:
		return said + ": it failed on its side. It is tried again; its logs may say why."
	}
	return said + "."
}

// address is the host and port err was connecting to, as the URL named
// them when there is one.
func address(err error) string {
	var ue *url.Error
	if errors.As(err, &ue) {
		if u, perr := url.Parse(ue.URL); perr == nil && u.Host != "" {
			return untrusted.Text(u.Host).Line()
		}
	}
	var oe *net.OpError
	if errors.As(err, &oe) && oe.Addr != nil {
		return untrusted.Text(oe.Addr.String()).Line()
	}
	return "the server"
}

// quoteCommand shows a command name in a sentence.
func quoteCommand(name string) string { return "`" + untrusted.Text(name).Line() + "`" }

// LastWords is why a stdio server gave up, from what it wrote to stderr:
// its last line that is not a stack frame, the properties Node prints of
// an error after its stack ("{ code: 'MODULE_NOT_FOUND' }") or a runtime's
// sign-off, without colours and without a leading "Error:" or the like,
// so that it reads as a reason. "" when there is none. It is the server's
// text: show it through untrusted.
func LastWords(stderr string) string {
	lines := strings.Split(ansiColour.ReplaceAllString(stderr, ""), "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		line := strings.TrimSpace(lines[i])
		if line == "}" { // back to the line that opened the block
			for i > 0 && !strings.HasSuffix(strings.TrimSpace(lines[i]), "{") {
				i--
			}
			continue
		}
		if line == "" || noise.MatchString(lines[i]) {
			continue
		}
		for {
			rest := levelPrefix.ReplaceAllString(line, "")
			if rest == line || rest == "" {
				break
			}
			line = rest
		}
		return line // quoted where shown: the server's words as it wrote them
	}
	return ""
}

var (
	// ansiColour is a terminal's colour or style escape, which servers
	// that log in colour write even to a pipe.
	ansiColour = regexp.MustCompile(`\x1b\[[0-9;]*m`)
	// noise are lines that never say why: stack frames of Node, Python
	// and Go, a caret under a source line, Node's version line, npm's
	// pointer to its log, and a bare exit status.
	noise = regexp.MustCompile(`^(\s+at |\s+File "|\t|goroutine \d+ \[|\s*[\^~]+\s*$|Node\.js v\d|npm (error|ERR!) A complete log of this run|exit status \d+$|[\w./*()\[\]-]+\([^ ]*\)$)`)
	// levelPrefix is the severity a logger puts before the message.
	levelPrefix = regexp.MustCompile(`(?i)^(npm (error|ERR!)|\[?(error|fatal|fatal error|critical|err)\]?)(:\s*|\s+)`)
)

// StartError is why a connection could not be made: the handshake's error,
// with what a stdio server wrote to stderr and how it ended, when it ended
// on its own.
type StartError struct {
	Err    error
	Stderr string // the last 64 KB of a stdio server's stderr
	Exit   error  // how the server's process ended, or nil
}

// Error keeps the stderr short: Stderr has all of it.
func (e *StartError) Error() string {
	s := e.Err.Error()
	if e.Exit != nil {
		s += "; " + e.Exit.Error()
	}
	if e.Stderr != "" {
		s += "; the server said: " + truncateTail(e.Stderr, 500)
	}
	return s
}

// Unwrap gives the handshake's error and the process's.
func (e *StartError) Unwrap() []error {
	if e.Exit == nil {
		return []error{e.Err}
	}
	return []error{e.Err, e.Exit}
}

// startFailed is err, from a connection that Close has ended, with what its
// stdio server left behind. The process's end counts only when the server
// closed the connection: after a timeout, it was ended by Close.
func (c *Conn) startFailed(err error) error {
	se := &StartError{Err: err, Stderr: c.Stderr()}
	if c.proc != nil && closedEarly(err) {
		se.Exit = c.proc.exitErr()
	}
	return se
}

func truncateTail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return "…" + s[len(s)-n:]
}
