# Elicit Desk: `make run` sets up, builds and starts the app; `make test`
# sets up and runs every check. Both install missing system packages first.

GO    ?= go
BIN   := elicitdesk
PKGS  := ./...

# Debian/Ubuntu packages: cgo needs the C toolchain and the X11/GL/Wayland
# headers of GLFW; tests add a virtual X server and screenshot tools.
BUILD_DEPS := gcc pkg-config libgl1-mesa-dev libx11-dev libxcursor-dev libxrandr-dev \
              libxinerama-dev libxi-dev libxxf86vm-dev libwayland-dev libxkbcommon-dev
TEST_DEPS  := $(BUILD_DEPS) xvfb xauth imagemagick xdotool dbus-x11 openbox

.PHONY: run build test bench fuzz deps test-deps peers clean

run: deps build
	@if [ -z "$$DISPLAY$$WAYLAND_DISPLAY" ]; then \
		echo "No display: start it from a desktop session, or under Xvfb: xvfb-run ./$(BIN)"; exit 1; fi
	./$(BIN)

build:
	$(GO) build -o $(BIN) .

# The end-to-end tests and benchmarks run the built app on a virtual display.
APP_ENV := ELICITDESK_BIN=$(CURDIR)/$(BIN)

# staticcheck runs through `go run` at a pinned version, so nothing is
# installed by hand.
STATICCHECK := honnef.co/go/tools/cmd/staticcheck@v0.8.2

test: test-deps peers build
	$(GO) vet $(PKGS)
	$(GO) run $(STATICCHECK) $(PKGS)
	$(PEERS_ENV) $(APP_ENV) $(GO) test -race -timeout 20m $(PKGS)

# The real MCP peers the tests run against (conformance suite, server-
# everything, Node 22), pinned by testdata/peers/package-lock.json.
PEERS     := testdata/peers
PEERS_ENV := ELICITDESK_PEERS=$(CURDIR)/$(PEERS)/node_modules
peers: $(PEERS)/node_modules/.installed
$(PEERS)/node_modules/.installed: $(PEERS)/package.json $(PEERS)/package-lock.json
	@command -v npm >/dev/null || { $(call install,nodejs npm); }
	npm ci --prefix $(PEERS) --no-audit --no-fund --loglevel=error
	touch $@

bench: test-deps peers build
	$(PEERS_ENV) $(APP_ENV) $(GO) test -run '^$$' -bench . -benchmem $(PKGS)

# fuzz runs each fuzz target for FUZZTIME (the seed corpora run in `make test`).
FUZZTIME ?= 30s
fuzz: deps
	$(GO) test -run '^$$' -fuzz '^FuzzParse$$' -fuzztime $(FUZZTIME) ./forms
	$(GO) test -run '^$$' -fuzz '^FuzzValidate$$' -fuzztime $(FUZZTIME) ./forms
	$(GO) test -run '^$$' -fuzz '^FuzzDateValue$$' -fuzztime $(FUZZTIME) ./forms
	$(GO) test -run '^$$' -fuzz '^FuzzLoad$$' -fuzztime $(FUZZTIME) ./servers/config
	$(GO) test -run '^$$' -fuzz '^FuzzText$$' -fuzztime $(FUZZTIME) ./internal/trust
	$(GO) test -run '^$$' -fuzz '^FuzzInspectLink$$' -fuzztime $(FUZZTIME) ./internal/trust
	$(GO) test -run '^$$' -fuzz '^FuzzSearch$$' -fuzztime $(FUZZTIME) ./internal/history
	$(GO) test -run '^$$' -fuzz '^FuzzRoundTrip$$' -fuzztime $(FUZZTIME) ./internal/hosts

deps:
	@$(call install,$(BUILD_DEPS))

test-deps:
	@$(call install,$(TEST_DEPS))

clean:
	rm -f $(BIN)

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
