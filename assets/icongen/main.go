// Command icongen scales the app icon to the sizes of the hicolor icon
// theme, for `make install`: go run ./assets/icongen 16:FILE 48:FILE...
// writes each FILE (and its folders) at its size. It never scales up: a
// size over the source's is refused.
package main

import (
	"flag"
	"fmt"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"golang.org/x/image/draw"
)

func main() {
	src := flag.String("src", "assets/icon.png", "the square source PNG")
	flag.Parse()
	for _, arg := range flag.Args() {
		n, out, ok := strings.Cut(arg, ":")
		size, err := strconv.Atoi(n)
		if !ok || err != nil {
			err = fmt.Errorf("%q: want SIZE:FILE", arg)
		} else {
			err = scale(*src, size, out)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "icongen:", err)
			os.Exit(1)
		}
	}
}

// scale writes src scaled to size×size at out.
func scale(src string, size int, out string) error {
	f, err := os.Open(src)
	if err != nil {
		return err
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		return fmt.Errorf("%s: %w", src, err)
	}
	b := img.Bounds()
	if size <= 0 || size > b.Dx() || size > b.Dy() || out == "" {
		return fmt.Errorf("want a size from 1 to %d (the source's) and a file", min(b.Dx(), b.Dy()))
	}
	dst := image.NewNRGBA(image.Rect(0, 0, size, size))
	draw.CatmullRom.Scale(dst, dst.Bounds(), img, b, draw.Src, nil)
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		return err
	}
	w, err := os.Create(out)
	if err != nil {
		return err
	}
	if err := png.Encode(w, dst); err != nil {
		w.Close()
		return err
	}
	return w.Close()
}
