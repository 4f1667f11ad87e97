// Package a11ytest checks that a package's custom widgets say something to
// a screen reader.
package a11ytest

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
)

// roles are the roles Fyne 2.8 knows.
var roles = []fyne.AccessibleRole{
	fyne.AccessibleRoleButton, fyne.AccessibleRoleContainer,
	fyne.AccessibleRoleLink, fyne.AccessibleRoleText,
}

// Check fails t unless widgets holds exactly one instance of each custom
// widget type declared in the package in dir (see Widgets), and each says
// something: it implements fyne.Accessible with a label and a known role.
func Check(t *testing.T, dir string, widgets ...fyne.CanvasObject) {
	t.Helper()
	declared, err := Widgets(dir)
	if err != nil {
		t.Fatal(err)
	}
	var listed []string
	for _, w := range widgets {
		name := reflect.TypeOf(w).Elem().Name()
		listed = append(listed, name)
		a, ok := w.(fyne.Accessible)
		if !ok {
			t.Errorf("%s does not implement fyne.Accessible: a screen reader skips it", name)
			continue
		}
		if a.AccessibilityLabel() == "" {
			t.Errorf("%s has no accessibility label", name)
		}
		if !slices.Contains(roles, a.AccessibilityRole()) {
			t.Errorf("%s has role %q, which Fyne does not know", name, a.AccessibilityRole())
		}
	}
	slices.Sort(listed)
	if !slices.Equal(listed, declared) {
		t.Errorf("the package declares the custom widgets %q but the test checks %q: add each new widget's Accessible methods and list it", declared, listed)
	}
}

// Widgets returns the sorted names of the custom widget types declared in
// the non-test Go files of dir: the types that embed a type of Fyne's
// widget or container packages (all of them widgets) or another custom
// widget, of this package or another of the module's, and the types with
// a CreateRenderer method.
func Widgets(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	fset := token.NewFileSet()
	embeds := map[string][]embedded{} // struct type -> embedded types
	found := map[string]bool{}
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".go") || strings.HasSuffix(e.Name(), "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(dir, e.Name()), nil, parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		imports := importsOf(f)
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.GenDecl:
				for _, s := range d.Specs {
					ts, ok := s.(*ast.TypeSpec)
					if !ok {
						continue
					}
					if st, ok := ts.Type.(*ast.StructType); ok {
						for _, field := range st.Fields.List {
							if len(field.Names) == 0 {
								embeds[ts.Name.Name] = append(embeds[ts.Name.Name], embedded{field.Type, imports})
							}
						}
					}
				}
			case *ast.FuncDecl:
				if d.Recv != nil && d.Name.Name == "CreateRenderer" {
					found[receiver(d.Recv.List[0].Type)] = true
				}
			}
		}
	}
	for changed := true; changed; {
		changed = false
		for name, types := range embeds {
			if found[name] {
				continue
			}
			for _, typ := range types {
				if isWidget(dir, typ, found) {
					found[name], changed = true, true
					break
				}
			}
		}
	}
	var names []string
	for name := range found {
		names = append(names, name)
	}
	slices.Sort(names)
	return names, nil
}

// embedded is a type a struct embeds, with its file's imports (name to
// path) to resolve it by.
type embedded struct {
	typ     ast.Expr
	imports map[string]string
}

// importsOf maps the names f imports packages under to their paths.
func importsOf(f *ast.File) map[string]string {
	m := map[string]string{}
	for _, i := range f.Imports {
		path := strings.Trim(i.Path.Value, `"`)
		name := filepath.Base(path)
		if i.Name != nil {
			name = i.Name.Name
		}
		m[name] = path
	}
	return m
}

// isWidget reports whether a type the package in dir embeds is a widget:
// Fyne's, one found already, or one another package of the module
// declares.
func isWidget(dir string, e embedded, found map[string]bool) bool {
	typ := e.typ
	if star, ok := typ.(*ast.StarExpr); ok {
		typ = star.X
	}
	switch typ := typ.(type) {
	case *ast.SelectorExpr:
		pkg, ok := typ.X.(*ast.Ident)
		if !ok {
			return false
		}
		if pkg.Name == "widget" || pkg.Name == "container" {
			return true
		}
		other, ok := moduleDir(dir, e.imports[pkg.Name])
		if !ok {
			return false
		}
		names, err := Widgets(other)
		return err == nil && slices.Contains(names, typ.Sel.Name)
	case *ast.Ident:
		return found[typ.Name]
	}
	return false
}

// moduleDir is the folder of the module's package path, found from dir,
// a folder of the module; false for a path outside it.
func moduleDir(dir, path string) (string, bool) {
	root, err := filepath.Abs(dir)
	if err != nil {
		return "", false
	}
	for {
		if b, err := os.ReadFile(filepath.Join(root, "go.mod")); err == nil {
			for line := range strings.Lines(string(b)) {
				if module, ok := strings.CutPrefix(strings.TrimSpace(line), "module "); ok {
					rel, ok := strings.CutPrefix(path, strings.TrimSpace(module)+"/")
					return filepath.Join(root, filepath.FromSlash(rel)), ok
				}
			}
			return "", false
		}
		if filepath.Dir(root) == root {
			return "", false
		}
		root = filepath.Dir(root)
	}
}

// receiver is the type name of a method's receiver.
func receiver(typ ast.Expr) string {
	if star, ok := typ.(*ast.StarExpr); ok {
		typ = star.X
	}
	if id, ok := typ.(*ast.Ident); ok {
		return id.Name
	}
	return ""
}
