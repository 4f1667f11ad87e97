package resident

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"strings"

	"golang.org/x/sys/unix"
)

// dropStartupPages drops every read-only mapping of a file that holds
// none of the process's own pages: the executable's code and read-only
// data, and the shared libraries' (libGL, libX11, libc...). A mapping
// with an anonymous page, in memory or swapped out, is left whole: the
// executable's RELRO part, for one, holds the GOT the dynamic linker
// wrote, and dropping it would take the file's unrelocated bytes back.
func dropStartupPages() error {
	smaps, err := os.ReadFile("/proc/self/smaps")
	if err != nil {
		return err
	}
	type mapping struct{ start, end uintptr }
	var drop []mapping
	var cur mapping
	candidate := false // the current mapping is a read-only file mapping
	own := 0           // of its Anonymous and Swap lines, those not 0 kB
	sc := bufio.NewScanner(bytes.NewReader(smaps))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		switch {
		case len(f) >= 5 && strings.Contains(f[0], "-") && len(f[1]) == 4: // a mapping's header
			// start-end perms offset major:minor inode [path]
			if _, err := fmt.Sscanf(f[0], "%x-%x", &cur.start, &cur.end); err != nil {
				return fmt.Errorf("reading /proc/self/smaps: %q: %w", f[0], err)
			}
			candidate = f[1][1] != 'w' && len(f) >= 6 && strings.HasPrefix(f[5], "/")
			own = 0
		case len(f) == 3 && (f[0] == "Anonymous:" || f[0] == "Swap:") && f[1] != "0":
			own++
		case len(f) > 0 && f[0] == "VmFlags:" && candidate && own == 0: // a mapping's last line
			drop = append(drop, cur)
		}
	}
	if err := sc.Err(); err != nil {
		return err
	}
	for _, m := range drop {
		if _, _, errno := unix.Syscall(unix.SYS_MADVISE, m.start, m.end-m.start, unix.MADV_DONTNEED); errno != 0 {
			return fmt.Errorf("madvise %x-%x: %w", m.start, m.end, errno)
		}
	}
	return nil
}
