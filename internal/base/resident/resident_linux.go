package resident

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

func dropStartupPages() error {
	var exe syscall.Stat_t
	if err := syscall.Stat("/proc/self/exe", &exe); err != nil {
		return err
	}
	maps, err := os.ReadFile("/proc/self/maps")
	if err != nil {
		return err
	}
	sc := bufio.NewScanner(bytes.NewReader(maps))
	for sc.Scan() {
		// start-end perms offset major:minor inode path
		f := strings.Fields(sc.Text())
		if len(f) < 6 || (f[1] != "r--p" && f[1] != "r-xp") || f[4] != strconv.FormatUint(exe.Ino, 10) || !sameDevice(f[3], exe.Dev) {
			continue
		}
		var start, end uintptr
		if _, err := fmt.Sscanf(f[0], "%x-%x", &start, &end); err != nil {
			return fmt.Errorf("reading /proc/self/maps: %q: %w", f[0], err)
		}
		if _, _, errno := unix.Syscall(unix.SYS_MADVISE, start, end-start, unix.MADV_DONTNEED); errno != 0 {
			return fmt.Errorf("madvise %s: %w", f[0], errno)
		}
	}
	return sc.Err()
}

// sameDevice reports whether maps' "major:minor" (hex) is dev.
func sameDevice(majmin string, dev uint64) bool {
	major, minor, ok := strings.Cut(majmin, ":")
	ma, err1 := strconv.ParseUint(major, 16, 32)
	mi, err2 := strconv.ParseUint(minor, 16, 32)
	return ok && err1 == nil && err2 == nil && unix.Major(dev) == uint32(ma) && unix.Minor(dev) == uint32(mi)
}
