# Elicit Desk: `make run` sets up, builds and starts the app; `make test`
# sets up and runs every check. Both install missing system packages first.

GO    ?= go
BIN   := elicitdesk
# KEEPER runs each stdio server on Linux: the keeper's C alone
# (servers/procgroup/keeper/main.c), stripped. elicitdesk finds it beside
# itself (this build) or in lib/elicitdesk beside its bin (an install: a
# helper, not a command), and is its own keeper where it is missing. It is
# linked statically with musl (KEEPER_CC), so that no ld.so relocates a
# libc in each of the ten or so that run all day: 12-16 kB of its own, 17-21
# kB proportional, against 92 and 150 kB linked with glibc's shared libc
# (what a clone built before make deps installed musl-tools gets).
# The packages carry a lintian override for it (assets/linux/lintian-overrides).
KEEPER := $(BIN)-keeper
KEEPER_CC ?= $(if $(shell command -v musl-gcc),musl-gcc -static,$(CC))
# CORE is the core's own executable on Linux (internal/corecmd), built
# without Fyne, GL and the other commands, so that what runs all day maps
# none of their code: elicitdesk hands the app over to it when it finds
# it where it finds the keeper, and runs the core itself where it is
# missing (internal/corecmd/handover_linux.go). It takes the app's time: a
# core older than the binary beside it, one built alone since, is not used.
CORE := $(BIN)-core
# The core's and the keeper's builds are Linux's alone.
BUILD_CORE := $(filter Linux,$(shell uname -s))
PKGS  := ./...

# Debian/Ubuntu packages: cgo needs the C toolchain and the X11/GL/Wayland
# headers of GLFW; tests add a virtual X server, screenshot tools,
# dbus-daemon, whose dbus-run-session the D-Bus activation test runs, and
# curl, the browser that the sign-in tests follow an authorization with,
# and a screen reader's plumbing: at-spi2-core's bus launcher and registry
# with libatspi's Python binding, the AT-SPI client the tests read with;
# OpenSSH's server and client, for a remote machine's forward.
BUILD_DEPS := gcc musl-tools pkg-config libgl1-mesa-dev libx11-dev libxcursor-dev libxrandr-dev \
              libxinerama-dev libxi-dev libxxf86vm-dev libwayland-dev libxkbcommon-dev
TEST_DEPS  := $(BUILD_DEPS) xvfb xauth imagemagick xdotool x11-utils dbus-x11 dbus-daemon openbox xterm jq curl sway xwayland grim \
              desktop-file-utils appstream at-spi2-core python3-pyatspi openssh-server openssh-client

.PHONY: headless package-headless run build test lint vet-platforms windows-check windows-exe windows-zip package-linux bench fuzz deps test-deps peers clean install uninstall install-check package package-check package-darwin package-windows screenshots

# The release, as FyneApp.toml says: `elicitdesk --version`, the .deb and the
# fyne package archive all take it from there.
VERSION := $(shell sed -n 's/^ *Version *= *"\(.*\)"/\1/p' FyneApp.toml)
LDFLAGS := -X=github.com/elicitdesk/elicitdesk/internal/base/build.Release=$(VERSION)

run: deps build
	@if [ -z "$$DISPLAY$$WAYLAND_DISPLAY" ]; then \
		echo "No display: start it from a desktop session, or under Xvfb: xvfb-run ./$(BIN)"; exit 1; fi
	./$(BIN)

build:
	$(GO) build -ldflags '$(LDFLAGS)' -o $(BIN) .
ifneq ($(BUILD_CORE),)
	$(GO) build -ldflags '$(LDFLAGS)' -o $(CORE) ./internal/corecmd/$(CORE)
	touch -r $(BIN) $(CORE)
	$(KEEPER_CC) -O2 -Wall -s -o $(KEEPER) servers/procgroup/keeper/main.c
endif

# HEADLESS is the build without windows (`-tags headless`): the bridge and
# the commands, for a dev box, a container or a VM, linking libc only; the
# tests run it in a root that holds nothing else.
HEADLESS := $(BIN)-headless
headless:
	$(GO) build -tags headless -ldflags '$(LDFLAGS)' -o $(HEADLESS) .

# The end-to-end tests and benchmarks run the built app on a virtual
# display, and the build without windows in a bare root.
APP_ENV := ELICITDESK_BIN=$(CURDIR)/$(BIN) ELICITDESK_HEADLESS=$(CURDIR)/$(HEADLESS)

# staticcheck runs through `go run` at a pinned version, so nothing is
# installed by hand.
STATICCHECK := honnef.co/go/tools/cmd/staticcheck@v0.8.2

# PACKAGE_CHECK=1 adds package-check: the release built and packaged
# (.deb, archive) and linted. WINDOWS_CHECK=1 adds the other platforms:
# the code vetted as Windows and macOS build it (vet-platforms) and the
# Windows release, its build, zip and checks under Wine. .ci/run sets
# both. A plain make test builds for Linux alone, once without -race and
# once with: the other platforms' and the release's builds, four more of
# the app (with modernc.org/sqlite, the longest to compile) and the cross
# compiler would add half again to its time on a new machine.
WINDOWS := $(filter 1,$(WINDOWS_CHECK))
PACKAGES := $(filter 1,$(PACKAGE_CHECK))
# LINT_CHECK=1 adds staticcheck, which .ci/run sets too: it analyses every
# dependency afresh (Fyne, SQLite), a minute with its cache warm and
# several on a new machine, for findings CI reports on every change.
LINT := $(filter 1,$(LINT_CHECK))
# RACY are the packages whose tests run without -race, and why: the tray's
# hosts read its icon while fyne.io/systray's SetIcon has godbus store new
# pixels into the value being read (a race in those libraries, which
# -race reports on a changed icon).
RACY := github.com/elicitdesk/elicitdesk/internal/desktop/tray

# The end-to-end tests mostly wait on the app, its windows and real peers:
# four run at once (-parallel), each with its own display and home.
test: test-deps peers build headless install-check $(if $(PACKAGES),package-check) $(if $(WINDOWS),vet-platforms windows-check)
	$(GO) vet $(PKGS)
	$(if $(LINT),$(MAKE) --no-print-directory lint)
	$(PEERS_ENV) $(APP_ENV) $(GO) test -race -parallel 4 -timeout 20m $$($(GO) list $(PKGS) | grep -vx '$(RACY)')
	$(GO) test -timeout 5m $(RACY)

# lint runs staticcheck over every package, tests included.
lint:
	$(GO) run $(STATICCHECK) $(PKGS)

# MINGW_CC is the C compiler for Windows builds of cgo packages here.
MINGW_CC := x86_64-w64-mingw32-gcc

# NO_CGO_AWK reads go list's "package|dep|dep..." lines, a test binary's
# (p.test) standing for its package, and prints the packages none of
# whose deps is in the newline-separated list cgo.
NO_CGO_AWK := BEGIN { n = split(cgo, c, "\n"); for (i = 1; i <= n; i++) bad[c[i]] = 1 } \
	{ p = $$1; sub(/\.test$$/, "", p); all[p] = 1; if ($$1 in bad) out[p] = 1; \
	  for (i = 2; i <= NF; i++) { d = $$i; sub(/ \[.*/, "", d); if (d in bad) out[p] = 1 } } \
	END { for (p in all) if (!(p in out)) print p }

# vet-platforms vets the code and the tests as Windows and macOS build
# them. Windows: every package, cgo through mingw-w64. macOS: cgo needs
# Apple's SDK, so every package that, tests included, depends on no package
# with cgo files; go list finds them, so new packages are vetted unasked.
vet-platforms: test-deps
	@$(call install,gcc-mingw-w64-x86-64)
	CGO_ENABLED=1 CC=$(MINGW_CC) GOOS=windows $(GO) vet $(PKGS)
	@cgo=$$(GOOS=darwin CGO_ENABLED=1 $(GO) list -deps -test -f '{{if .CgoFiles}}{{.ImportPath}}{{end}}' $(PKGS)) && \
	pkgs=$$(GOOS=darwin CGO_ENABLED=1 $(GO) list -test -f '{{if not .ForTest}}{{.ImportPath}}{{range .Deps}}|{{.}}{{end}}{{end}}' $(PKGS) | \
		awk -F'|' -v cgo="$$cgo" '$(NO_CGO_AWK)' | sort) && \
	echo "GOOS=darwin CGO_ENABLED=0 $(GO) vet: $$(echo $$pkgs | wc -w) packages without cgo" && \
	GOOS=darwin CGO_ENABLED=0 $(GO) vet $$pkgs

# windows-check runs the Windows release, elicitdesk.exe as make package
# ships it (WINEXE), under Wine on a virtual display
# (testdata/windows/smoke.sh says what it checks). Debian's Wine 8 lacks
# bcryptprimitives.dll, whose ProcessPrng every Go 1.24+ program calls at
# start-up: a ten-line stand-in is built from source here, as is one of
# uiautomationcore.dll, whose UiaRaiseStructureChangedEvent Wine 8 aborts
# in (the release's accessibility tag calls it), and terminal.exe, which
# starts a program as cmd.exe does.
# The unit tests of WINE_TESTS run there too: the packages without cgo
# whose tests pass under Wine, or skip saying why, among them those with
# Windows code of their own (endpoint, autostart, cmdline). The others'
# tests use t.TempDir, whose clean-up Wine 8 cannot do (atomicfile,
# history, hosts, servers, servers/config, servers/signin), or need a
# display (README, Windows).
WINE_DEPS  := wine wine64
WINDIST    := dist/windows
WINE_TESTS := internal/endpoint internal/desktop/autostart internal/base/cmdline app/a11y/a11ytest internal/base/gate internal/base/jsonnum \
              internal/desktop/notify internal/desktop/portal internal/testkit/proctest internal/base/textpos internal/trust internal/base/untrusted \
              servers/bridge servers/client servers/demo servers/link servers/rpc servers/tasks internal/base/lines
WINGO      := CGO_ENABLED=1 CC=$(MINGW_CC) GOOS=windows nice $(GO)
windows-check: test-deps build windows-exe
	@$(call install,$(WINE_DEPS))
	$(MINGW_CC) -shared -O2 -s -o $(WINDIST)/bcryptprimitives.dll testdata/windows/bcryptprimitives.c -lbcrypt
	$(MINGW_CC) -shared -O2 -s -o $(WINDIST)/uiautomationcore.dll testdata/windows/uiautomationcore.c
	$(MINGW_CC) -municode -O2 -s -o $(WINDIST)/terminal.exe testdata/windows/terminal.c
	for p in $(WINE_TESTS); do $(WINGO) test -c -o $(WINDIST)/$$(basename $$p).test.exe ./$$p || exit 1; done
	EXE=$(WINEXE) BIN=./$(BIN) SHIM=$(WINDIST)/bcryptprimitives.dll UIA=$(WINDIST)/uiautomationcore.dll \
		TERMINAL=$(WINDIST)/terminal.exe \
		WINDOWS_CHECK_OUT=$(WINDIST) WINE_TESTS='$(WINE_TESTS)' GO=$(GO) testdata/windows/smoke.sh

# windows-exe builds the Windows release, WINEXE, with mingw-w64 (a
# cross-compiler here, the native one under MSYS2) through fyne package:
# a GUI program (no console window; see internal/desktop/console) with the icon,
# version and manifest of FyneApp.toml, stripped, without build paths,
# with the accessibility tag. The fyne tool itself is built without cgo,
# for this system; fyne package turns cgo on for the exe. fyne package
# takes the version's -ldflags from GOFLAGS but drops them after a first
# build, and for Windows builds twice (the second with its icon): given an
# executable, a placeholder it builds over, it builds once.
WINEXE := $(WINDIST)/$(BIN).exe
windows-exe:
	@$(call install,gcc-mingw-w64-x86-64)
	mkdir -p $(WINDIST)
	@# fyne package counts a build into FyneApp.toml and rewrites it: keep it as committed
	cp FyneApp.toml $(WINDIST)/FyneApp.toml
	touch $(BIN).exe
	CGO_ENABLED=0 CC=$(MINGW_CC) GOFLAGS=-ldflags=$(LDFLAGS) nice $(GO) run $(FYNE) package -os windows -release -tags $(RELEASE_TAGS) \
		-executable $(BIN).exe; status=$$?; mv $(WINDIST)/FyneApp.toml FyneApp.toml; rm -f $(BIN).exe; exit $$status
	mv "Elicit Desk.exe" $(WINEXE)

# The real MCP peers and hosts the tests run against (conformance suite,
# server-everything, Claude Code, Codex, Gemini CLI, Node 22), pinned by
# testdata/peers/package-lock.json.
PEERS     := testdata/peers
PEERS_ENV := ELICITDESK_PEERS=$(CURDIR)/$(PEERS)/node_modules
peers: $(PEERS)/node_modules/.installed
$(PEERS)/node_modules/.installed: $(PEERS)/package.json $(PEERS)/package-lock.json
	@command -v npm >/dev/null || { $(call install,nodejs npm); }
	npm ci --prefix $(PEERS) --no-audit --no-fund --loglevel=error
	touch $@

bench: test-deps peers build headless
	$(PEERS_ENV) $(APP_ENV) $(GO) test -run '^$$' -bench . -benchmem $(PKGS)

# fuzz runs every fuzz target of the module for FUZZTIME each (their seed
# corpora run in `make test`): each Fuzz function of each package, found
# afresh, so that a new target is never left out.
FUZZTIME ?= 30s
fuzz: deps
	@for dir in $$(grep -rl --include='*_test.go' --exclude-dir=testdata '^func Fuzz' . | xargs -n1 dirname | sort -u); do \
	  for target in $$(sed -n 's/^func \(Fuzz[A-Za-z0-9_]*\)(.*/\1/p' $$dir/*_test.go); do \
	    echo "$$dir $$target"; \
	    $(GO) test -run '^$$' -fuzz "^$$target\$$" -fuzztime $(FUZZTIME) $$dir || exit 1; \
	  done; \
	done

deps:
	@$(call install,$(BUILD_DEPS))

# make install puts Elicit Desk in this user's application menu, no root
# needed: the binary in ~/.local/bin, a desktop entry, hicolor icons,
# AppStream metadata, a D-Bus service file and a systemd user unit under
# ~/.local/share. PREFIX=/usr DESTDIR=DIR stages a system install in DIR,
# which make package packs.
# A bridge that finds the app not running has the session bus start it, so
# that it runs with the session's display and bus, not the host's: the
# D-Bus service file names the installed binary, and where systemd runs the
# session the bus has it start the user unit instead. The session bus reads
# share/dbus-1/services under any XDG data directory; systemd reads user
# units from lib/systemd/user under /usr and /usr/local, and from
# share/systemd/user under the user's own data home.
APP_ID     := io.github.elicitdesk
PREFIX     ?= $(HOME)/.local
DESTDIR    ?=
ICON_SIZES := 16 24 32 48 64 128 256
icon        = share/icons/hicolor/$(1)x$(1)/apps/$(APP_ID).png
ICONS      := $(foreach s,$(ICON_SIZES),$(call icon,$(s)))
DBUS_SERVICE := share/dbus-1/services/$(APP_ID).service
user_unit     = $(if $(filter /usr /usr/local,$(1)),lib,share)/systemd/user/$(BIN).service
USER_UNIT    := $(call user_unit,$(PREFIX))
installed     = bin/$(BIN) lib/$(BIN)/$(KEEPER) lib/$(BIN)/$(CORE) share/applications/$(APP_ID).desktop share/metainfo/$(APP_ID).metainfo.xml $(ICONS) \
                $(DBUS_SERVICE) $(call user_unit,$(1))
INSTALLED  := $(call installed,$(PREFIX))
ROOT       := $(DESTDIR)$(PREFIX)

# INSTALL_BIN and INSTALL_CORE are the binaries installed: this build, or
# make package's release.
INSTALL_BIN ?= $(BIN)
INSTALL_CORE ?= $(CORE)

install: deps build
	install -Dm755 $(INSTALL_BIN) $(ROOT)/bin/$(BIN)
	install -Dm755 $(KEEPER) $(ROOT)/lib/$(BIN)/$(KEEPER)
	install -Dm755 $(INSTALL_CORE) $(ROOT)/lib/$(BIN)/$(CORE)
	install -d $(ROOT)/share/applications $(ROOT)/share/metainfo
	sed 's|^Exec=.*|Exec=$(PREFIX)/bin/$(BIN)|' assets/linux/$(APP_ID).desktop >$(ROOT)/share/applications/$(APP_ID).desktop
	chmod 644 $(ROOT)/share/applications/$(APP_ID).desktop
	install -m644 assets/linux/$(APP_ID).metainfo.xml $(ROOT)/share/metainfo/
	install -d $(dir $(ROOT)/$(DBUS_SERVICE)) $(dir $(ROOT)/$(USER_UNIT))
	sed 's|^Exec=[^ ]*|Exec=$(PREFIX)/bin/$(BIN)|' assets/linux/$(APP_ID).service >$(ROOT)/$(DBUS_SERVICE)
	sed 's|^ExecStart=[^ ]*|ExecStart=$(PREFIX)/bin/$(BIN)|' assets/linux/$(BIN).service >$(ROOT)/$(USER_UNIT)
	chmod 644 $(ROOT)/$(DBUS_SERVICE) $(ROOT)/$(USER_UNIT)
	$(GO) run ./assets/icongen -src assets/icon.png $(foreach s,$(ICON_SIZES),$(s):$(ROOT)/$(call icon,$(s)))
	@$(refresh-menus)
	@$(refresh-session)

uninstall:
	rm -f $(addprefix $(ROOT)/,$(INSTALLED))
	-rmdir $(ROOT)/lib/$(BIN) 2>/dev/null; true
	-@for s in $(ICON_SIZES); do rmdir $(ROOT)/share/icons/hicolor/$${s}x$${s}/apps $(ROOT)/share/icons/hicolor/$${s}x$${s} 2>/dev/null; done; true
	@$(refresh-menus)
	@$(refresh-session)

# refresh-menus tells a real install's desktop about the change; a staged
# one (DESTDIR) leaves that to the package's triggers. An icon cache is
# only refreshed where the theme has one, as it would otherwise go stale.
define refresh-menus
	if [ -z "$(DESTDIR)" ]; then \
		command -v update-desktop-database >/dev/null && update-desktop-database -q $(ROOT)/share/applications; \
		command -v gtk-update-icon-cache >/dev/null && [ -f $(ROOT)/share/icons/hicolor/index.theme ] && \
			gtk-update-icon-cache -q $(ROOT)/share/icons/hicolor; \
	fi; true
endef

# refresh-session has a real install's session see the D-Bus service file
# and the user unit now: systemd and dbus-broker read them again only when
# told (dbus-daemon looks by itself). Never a bus of its own: dbus-send is
# only run with a session's address.
define refresh-session
	if [ -z "$(DESTDIR)" ]; then \
		command -v systemctl >/dev/null && systemctl --user daemon-reload 2>/dev/null; \
		[ -n "$$DBUS_SESSION_BUS_ADDRESS" ] && command -v dbus-send >/dev/null && \
			dbus-send --session --type=method_call --dest=org.freedesktop.DBus /org/freedesktop/DBus org.freedesktop.DBus.ReloadConfig 2>/dev/null; \
	fi; true
endef

# install-check installs into a temporary root, validates the desktop entry
# and the AppStream metadata there, checks that the D-Bus service file and
# the user unit start the installed binary, and uninstalls: no file may be
# left.
install-check: test-deps
	@root=$$(mktemp -d) && trap 'rm -rf "$$root"' EXIT && \
	$(MAKE) --no-print-directory install DESTDIR=$$root PREFIX=/usr >/dev/null && \
	desktop-file-validate $$root/usr/share/applications/$(APP_ID).desktop && \
	appstreamcli validate --no-net --no-color $$root/usr/share/metainfo/$(APP_ID).metainfo.xml >/dev/null && \
	for f in $(call installed,/usr); do [ -s $$root/usr/$$f ] || { echo "make install did not install $$f"; exit 1; }; done && \
	{ grep -qx 'Exec=/usr/bin/$(BIN) -background' $$root/usr/$(DBUS_SERVICE) && \
	  grep -qx 'ExecStart=/usr/bin/$(BIN) -background' $$root/usr/$(call user_unit,/usr) || \
	  { echo "the D-Bus service file and the systemd unit must start the installed binary"; exit 1; }; } && \
	$(MAKE) --no-print-directory uninstall DESTDIR=$$root PREFIX=/usr >/dev/null && \
	left=$$(find $$root -type f) && [ -z "$$left" ] || { echo "make uninstall left: $$left"; exit 1; }; \
	echo "install-check: make install and make uninstall are clean"

# make package builds dist/elicitdesk_VERSION_ARCH.deb with nfpm and the
# fyne package archive (dist/Elicit Desk.tar.xz), both through `go run`
# at pinned versions, from one release binary: position-independent,
# stripped, without build paths. The .deb adds what Debian asks of a
# package: a manual page made by help2man from --help, a changelog
# entry for this version and the copyright file. It also zips the
# Windows release that windows-check runs (WINEXE) with the icon and the
# README into WINZIP: a folder "Elicit Desk" to unpack anywhere (README,
# Windows). The zip is the same for the same commit: its files carry the
# commit's time, and no extra attributes.
NFPM := github.com/goreleaser/nfpm/v2/cmd/nfpm@v2.45.0
FYNE := fyne.io/tools/cmd/fyne@v1.7.4
ARCH  = $(shell $(GO) env GOARCH)
DEB   = dist/$(BIN)_$(VERSION)_$(ARCH).deb
DOC  := dist/root/usr/share/doc/$(BIN)
WINZIP := dist/$(BIN)_$(VERSION)_windows_amd64.zip

package: package-linux package-headless windows-zip

# package-headless builds the build without windows for amd64 and arm64
# (a cross C compiler for the keeper's and the detacher's C; Debian has
# no musl for it, so arm64's keeper is linked statically with glibc), each as a
# .deb (elicitdesk-headless, which conflicts with the app's: both are
# /usr/bin/elicitdesk) and an archive to unpack anywhere, the keeper
# beside the binary. The manual page is the amd64 build's --help: the
# same text, so amd64 comes first. go install -tags headless builds the
# same binary.
HEADLESS_ARCHS := amd64 arm64
headless_deb = dist/$(HEADLESS)_$(VERSION)_$(1).deb
package-headless: deps
	@$(call install,help2man gcc-aarch64-linux-gnu libc6-dev-arm64-cross)
	set -e; for a in $(HEADLESS_ARCHS); do \
		cc=gcc; keepercc="$(KEEPER_CC)"; [ $$a = amd64 ] || { cc=aarch64-linux-gnu-gcc; keepercc="$$cc -static"; }; \
		root=dist/headless-root; rm -rf $$root; \
		CGO_ENABLED=1 GOARCH=$$a CC=$$cc $(GO) build -tags headless -buildmode=pie -trimpath -ldflags '-s -w $(LDFLAGS)' -o $$root/usr/bin/$(BIN) .; \
		mkdir -p $$root/usr/lib/$(BIN) $$root/usr/share/man/man1 $$root/usr/share/doc/$(HEADLESS); \
		$$keepercc -O2 -Wall -s -o $$root/usr/lib/$(BIN)/$(KEEPER) servers/procgroup/keeper/main.c; \
		install -Dm644 assets/linux/lintian-overrides $$root/usr/share/lintian/overrides/$(HEADLESS); \
		[ $$a != amd64 ] || help2man --no-info --version-string=$(VERSION) --name="Elicit Desk's bridge for remote machines, without windows" \
			$$root/usr/bin/$(BIN) | gzip -9n >dist/$(HEADLESS).1.gz; \
		cp dist/$(HEADLESS).1.gz $$root/usr/share/man/man1/$(BIN).1.gz; \
		install -m644 assets/linux/copyright $$root/usr/share/doc/$(HEADLESS)/copyright; \
		printf '%s (%s) unstable; urgency=medium\n\n  * Release %s.\n\n -- %s  %s\n' \
			$(HEADLESS) $(VERSION) $(VERSION) "$$(sed -n 's/^maintainer: //p' assets/linux/nfpm-headless.yaml)" \
			"$$(git log -1 --format=%aD 2>/dev/null || date -R)" | gzip -9n >$$root/usr/share/doc/$(HEADLESS)/changelog.gz; \
		VERSION=$(VERSION) ARCH=$$a $(GO) run $(NFPM) package -f assets/linux/nfpm-headless.yaml -p deb -t dist/; \
		dir=$(HEADLESS)_$(VERSION)_linux_$$a; rm -rf dist/$$dir && mkdir dist/$$dir; \
		cp $$root/usr/bin/$(BIN) $$root/usr/lib/$(BIN)/$(KEEPER) README.md dist/$$dir/; \
		tar -C dist -czf dist/$$dir.tar.gz --owner=0 --group=0 --mtime=@$$(git log -1 --format=%ct 2>/dev/null || date +%s) $$dir; \
		rm -rf dist/$$dir; \
	done
	rm -rf dist/headless-root dist/$(HEADLESS).1.gz

package-linux: deps build
	@$(call install,help2man)
	rm -rf dist/root && mkdir -p dist
	$(GO) build -buildmode=pie -trimpath -ldflags '-s -w $(LDFLAGS)' -o dist/$(BIN) .
	$(GO) build -buildmode=pie -trimpath -ldflags '-s -w $(LDFLAGS)' -o dist/$(CORE) ./internal/corecmd/$(CORE)
	$(MAKE) --no-print-directory install INSTALL_BIN=dist/$(BIN) INSTALL_CORE=dist/$(CORE) DESTDIR=$(CURDIR)/dist/root PREFIX=/usr
	mkdir -p dist/root/usr/share/man/man1 $(DOC)
	help2man --no-info --version-string=$(VERSION) --name="$$(sed -n 's|.*<summary>\(.*\)</summary>.*|\1|p' assets/linux/$(APP_ID).metainfo.xml)" \
		dist/$(BIN) | gzip -9n >dist/root/usr/share/man/man1/$(BIN).1.gz
	install -m644 assets/linux/copyright $(DOC)/copyright
	install -Dm644 assets/linux/lintian-overrides dist/root/usr/share/lintian/overrides/$(BIN)
	printf '%s (%s) unstable; urgency=medium\n\n  * Release %s.\n\n -- %s  %s\n' \
		$(BIN) $(VERSION) $(VERSION) "$$(sed -n 's/^maintainer: //p' assets/linux/nfpm.yaml)" \
		"$$(git log -1 --format=%aD 2>/dev/null || date -R)" | gzip -9n >$(DOC)/changelog.gz
	VERSION=$(VERSION) ARCH=$(ARCH) $(GO) run $(NFPM) package -f assets/linux/nfpm.yaml -p deb -t dist/
	@# fyne package counts a build into FyneApp.toml and rewrites it: keep it as committed
	cp FyneApp.toml dist/FyneApp.toml
	$(GO) run $(FYNE) package -os linux -release -executable dist/$(BIN); \
		status=$$?; mv dist/FyneApp.toml FyneApp.toml; exit $$status
	mv "Elicit Desk.tar.xz" dist/
	rm -rf dist/root dist/$(BIN) dist/$(CORE)

windows-zip: windows-exe
	@$(call install,zip)
	rm -rf dist/zip $(WINZIP) && mkdir -p "dist/zip/Elicit Desk"
	cp $(WINEXE) "dist/zip/Elicit Desk/$(BIN).exe"
	cp assets/icon.png "dist/zip/Elicit Desk/$(BIN).png"
	cp README.md "dist/zip/Elicit Desk/README.md"
	TZ=UTC touch -d "@$$(git log -1 --format=%ct 2>/dev/null || date +%s)" "dist/zip/Elicit Desk" "dist/zip/Elicit Desk"/*
	cd dist/zip && zip -X -q -r ../$(notdir $(WINZIP)) "Elicit Desk"
	rm -rf dist/zip

# make package-darwin builds the release for macOS (dist/Elicit Desk.app)
# with fyne package, from source, on a Mac: cgo needs Apple's SDK. make
# package-windows builds the Windows one (windows-exe) on Windows or here,
# as dist/Elicit Desk.exe. Both carry the accessibility build tag: without
# it Fyne 2.8 tells a screen reader nothing (README, Accessibility). fyne
# package takes the version's -ldflags from GOFLAGS.
RELEASE_TAGS := accessibility

package-darwin:
	mkdir -p dist
	@# fyne package counts a build into FyneApp.toml and rewrites it: keep it as committed
	cp FyneApp.toml dist/FyneApp.toml
	GOFLAGS=-ldflags=$(LDFLAGS) $(GO) run $(FYNE) package -os darwin -release -tags $(RELEASE_TAGS); \
		status=$$?; mv dist/FyneApp.toml FyneApp.toml; exit $$status
	rm -rf "dist/Elicit Desk.app"
	mv "Elicit Desk.app" dist/

package-windows: windows-exe
	cp $(WINEXE) "dist/Elicit Desk.exe"

# package-check builds the packages and lints them: lintian must find
# neither an error nor a warning in the .deb, and the archive's desktop
# entry must be valid and start the binary it holds. Each build without
# windows must be for its machine, need libc alone, and run (arm64's
# under qemu-user, with the cross libc package-headless installed). With WINDOWS_CHECK=1
# it builds the Windows zip too, which must hold the exe, the icon and the
# README, the exe a GUI program (testdata/windows/subsystem.sh).
package-check: test-deps package-linux package-headless $(if $(WINDOWS),windows-zip)
	@$(call install,lintian qemu-user)
	lintian --fail-on error,warning $(DEB) $(foreach a,$(HEADLESS_ARCHS),$(call headless_deb,$(a)))
	@set -e; tmp=$$(mktemp -d); trap 'rm -rf "$$tmp"' EXIT; \
	for a in $(HEADLESS_ARCHS); do \
		tar -xzf dist/$(HEADLESS)_$(VERSION)_linux_$$a.tar.gz -C $$tmp; \
		bin=$$tmp/$(HEADLESS)_$(VERSION)_linux_$$a/$(BIN); \
		machine=$$(readelf -h $$bin | sed -n 's/ *Machine: *//p'); \
		needed=$$(readelf -d $$bin | sed -n 's/.*Shared library: \[\(.*\)\]/\1/p' | tr '\n' ' '); \
		case "$$a:$$machine" in amd64:*X86-64*|arm64:*AArch64*) ;; *) echo "the $$a build is for $$machine"; exit 1;; esac; \
		[ "$$needed" = "libc.so.6 " ] || { echo "the $$a build without windows needs $$needed, not libc alone"; exit 1; }; \
		run=; [ $$a = amd64 ] || run="qemu-aarch64 -L /usr/aarch64-linux-gnu"; \
		said=$$($$run $$bin version) || { echo "the $$a build without windows does not run"; exit 1; }; \
		echo "package-check: $$a: $$machine, needs $$needed, runs: $$said"; \
	done
	@tmp=$$(mktemp -d) && trap 'rm -rf "$$tmp"' EXIT && \
	tar -xf "dist/Elicit Desk.tar.xz" -C $$tmp && \
	desktop-file-validate $$tmp/elicitdesk/usr/local/share/applications/*.desktop && \
	$$tmp/elicitdesk/usr/local/bin/$(BIN) --version && \
	echo "package-check: $(DEB) and dist/Elicit Desk.tar.xz are clean"
ifneq ($(WINDOWS),)
	@tmp=$$(mktemp -d) && trap 'rm -rf "$$tmp"' EXIT && \
	unzip -q $(WINZIP) -d $$tmp/zip && \
	for f in $(BIN).exe $(BIN).png README.md; do [ -s "$$tmp/zip/Elicit Desk/$$f" ] || { echo "$(WINZIP) lacks $$f"; exit 1; }; done && \
	testdata/windows/subsystem.sh "$$tmp/zip/Elicit Desk/$(BIN).exe" && \
	echo "package-check: $(WINZIP) is clean"
endif

test-deps:
	@$(call install,$(TEST_DEPS))

# make screenshots retakes docs/shots/*.png: every window the README shows,
# light and dark, at scale 1 and 2, on a virtual display (SHOTS_DISPLAY,
# :99 unless set).
screenshots: test-deps build
	BIN=./$(BIN) docs/screenshots.sh

clean:
	rm -rf $(BIN) $(CORE) $(HEADLESS) $(KEEPER) dist

# install $(1): the Debian packages that are missing, through apt-get (with
# sudo when not root); elsewhere, say exactly what to install.
define install
	command -v $(GO) >/dev/null || { echo "Go is missing: install Go 1.26 or newer from https://go.dev/dl/"; exit 1; }; \
	if command -v dpkg-query >/dev/null && command -v apt-get >/dev/null; then \
		missing=""; \
		for p in $(1); do \
			dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "ok installed" || missing="$$missing $$p"; \
		done; \
		[ -z "$$missing" ] && exit 0; \
		sudo=""; [ "$$(id -u)" -eq 0 ] || sudo=sudo; \
		echo "Installing:$$missing"; \
		$$sudo apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive $$sudo apt-get install -y -qq --no-install-recommends $$missing; \
	elif [ "$$(uname)" = Darwin ]; then \
		xcode-select -p >/dev/null 2>&1 || echo "Install the Xcode command line tools: xcode-select --install"; \
	elif command -v dnf >/dev/null; then \
		echo "Install: sudo dnf install gcc pkgconf-pkg-config mesa-libGL-devel libX11-devel libXcursor-devel libXrandr-devel libXinerama-devel libXi-devel libXxf86vm-devel wayland-devel libxkbcommon-devel xorg-x11-server-Xvfb"; \
	elif command -v pacman >/dev/null; then \
		echo "Install: sudo pacman -S --needed gcc pkgconf mesa libx11 libxcursor libxrandr libxinerama libxi libxxf86vm wayland libxkbcommon xorg-server-xvfb"; \
	else \
		echo "Install a C compiler, pkg-config and the development headers of OpenGL, X11 (Xcursor, Xrandr, Xinerama, Xi, Xxf86vm), Wayland and xkbcommon."; \
	fi
endef
