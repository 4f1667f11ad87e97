// Package hosts finds the MCP hosts on this desktop (Claude Desktop,
// Cursor, VS Code, Zed, Codex…) by their config files, lists the servers
// each one runs, and routes them through `elicitdesk bridge` and back.
//
// A host's config is the person's file, written by the host too. Every
// edit is therefore a minimal text edit at positions a parser reports, so
// that comments, key order, indentation and every other key stay as they
// were, and route followed by unroute gives the file back byte for byte.
// A file that cannot be read exactly, or that changes while we write, is
// refused whole: nothing is ever half-written.
package hosts

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
)

// Format is the syntax of a host's config file.
type Format string

const (
	JSON  Format = "json"  // strict JSON
	JSONC Format = "jsonc" // JSON with comments and trailing commas
	TOML  Format = "toml"
	YAML  Format = "yaml"
)

// Host is an MCP host that Elicit Desk knows, with where its config lives
// on this machine.
type Host struct {
	ID     string // stable, for the command line: "claude-desktop"
	Name   string // for people: "Claude Desktop"
	Config string // the config file's path
	Key    string // the top-level key (or TOML table) that holds its servers
	Format Format
	Shape  Shape // how an entry is written; Standard for most hosts
	// Projects is the top-level key whose members, named by a project's
	// directory, hold servers of that project's own under Key too (Claude
	// Code's "projects", its local scope); "" for a host without.
	Projects string
	// Project is the project directory a Config's Scope shows the servers
	// of; "" for the user's own.
	Project string
	// Profiles is the User folder of a host that keeps servers per
	// profile, each profile's in a file of its own (VS Code's, see
	// ProfilesOf); "" for a host without.
	Profiles string
	// Profile is the profile whose servers Config holds; the zero Profile
	// for the default profile's.
	Profile Profile
	// ReadOnly says why Elicit Desk lists this host's config but never
	// edits it (its format cannot be read and written back exactly); ""
	// for a host it routes.
	ReadOnly string
}

// Shape is how a host writes one server's entry, where hosts differ.
type Shape int

const (
	// Standard entries give "command", "args", "env" and "cwd", or a
	// "url" (Windsurf: "serverUrl") with "headers" and a "type".
	Standard Shape = iota
	// Gemini entries (Gemini CLI's, Qwen Code's) are Standard ones whose
	// Streamable HTTP address is "httpUrl"; a "url" without a "type" is
	// reached by SSE.
	Gemini
	// Cline entries (Cline's, Roo Code's, Kilo Code's) are Standard ones
	// whose url without a "type" these hosts reach by SSE or refuse, as
	// their versions differ: such an entry is left alone.
	Cline
	// OpenCode entries (opencode's) are {"type": "local",
	// "command": ["prog", "arg"...], "environment": {...}}, or {"type":
	// "remote", "url", "headers"}.
	OpenCode
	// Kimi entries (Kimi Code CLI's, read by fastmcp's MCPConfig) are
	// Standard ones whose url without a "transport" fastmcp reaches by SSE
	// when its path has a /sse segment, else by Streamable HTTP.
	Kimi
	// Goose entries (Goose's extensions) are {"type": "stdio", "cmd",
	// "args", "envs"}, or a remote {"type": "streamable_http", "uri",
	// "headers"}; other types are Goose's own.
	Goose
	// Continue entries are Standard ones in a list, each named by its
	// "name"; a remote one's headers are in "requestOptions".
	Continue
	// Crush entries are Standard ones whose headers Crush expands ($VAR,
	// $(command)) but whose env it passes as written.
	Crush
	// Grok entries (Grok Build's) are Codex's TOML ones whose headers are
	// "headers", not "http_headers".
	Grok
)

// Env is what the config paths depend on, so that tests can place a host
// anywhere and every OS's path can be checked on any OS.
type Env struct {
	GOOS   string              // runtime.GOOS
	Home   string              // the user's home directory
	Getenv func(string) string // os.Getenv
	// Exists reports whether a file or directory is there, for a host
	// whose config may be in one of several places; nil: none is.
	Exists func(path string) bool
	// ReadFile reads a file that says where a host's config is (LM
	// Studio's home pointer); nil: there is none.
	ReadFile func(path string) ([]byte, error)
}

// firstOf is the first of candidates that exists, or fallback when none
// does.
func (env Env) firstOf(fallback string, candidates ...string) string {
	for _, p := range candidates {
		if env.Exists != nil && env.Exists(p) {
			return p
		}
	}
	return fallback
}

// lmstudioHome is LM Studio's home as lmstudio-js finds it
// (packages/lms-common-server/src/findLMStudioHome.ts): the directory
// ~/.lmstudio-home-pointer names, which LM Studio writes; before it has,
// ~/.cache/lm-studio where an older LM Studio made that, else ~/.lmstudio.
func (env Env) lmstudioHome() string {
	if env.ReadFile != nil {
		if b, err := env.ReadFile(filepath.Join(env.Home, ".lmstudio-home-pointer")); err == nil {
			if dir := strings.TrimSpace(string(b)); filepath.IsAbs(dir) {
				return dir
			}
		}
	}
	return env.firstOf(filepath.Join(env.Home, ".lmstudio"), filepath.Join(env.Home, ".cache", "lm-studio"))
}

// Known lists every host Elicit Desk knows, with its config path under env.
// Each path is the one the host's own documentation gives for a user-level
// MCP config; the hosts' projects keep per-project configs we leave alone.
func Known(env Env) []Host {
	home := func(elem ...string) string { return filepath.Join(append([]string{env.Home}, elem...)...) }
	appConfig := env.configDir()
	zed := filepath.Join(env.xdgConfig(), "zed") // Zed uses ~/.config/zed on macOS too
	if env.GOOS == "windows" {
		zed = filepath.Join(appConfig, "Zed")
	}
	claudeCode := home(".claude.json")
	if dir := env.Getenv("CLAUDE_CONFIG_DIR"); dir != "" {
		claudeCode = filepath.Join(dir, ".claude.json")
	}
	codex := home(".codex")
	if dir := env.Getenv("CODEX_HOME"); dir != "" {
		codex = dir
	}
	// Gemini CLI takes GEMINI_CLI_HOME for the home directory its .gemini
	// is in (packages/core/src/utils/paths.ts, homedir()).
	gemini := home(".gemini")
	if dir := env.Getenv("GEMINI_CLI_HOME"); filepath.IsAbs(dir) {
		gemini = filepath.Join(dir, ".gemini")
	}
	// Copilot CLI keeps everything in COPILOT_HOME, ~/.copilot by default;
	// it read XDG_CONFIG_HOME for a while and no longer does
	// (github/copilot-cli issues 1750 and 1954).
	copilot := home(".copilot")
	if dir := env.Getenv("COPILOT_HOME"); filepath.IsAbs(dir) {
		copilot = dir
	}
	qwen := home(".qwen")
	if dir := env.Getenv("QWEN_HOME"); filepath.IsAbs(dir) {
		qwen = dir
	}
	// VS Code extensions keep their settings in VS Code's globalStorage,
	// under the extension's id in lower case.
	extension := func(id, file string) string {
		return filepath.Join(appConfig, "Code", "User", "globalStorage", id, "settings", file)
	}
	// opencode reads config.json, opencode.json and opencode.jsonc in
	// xdg-basedir's config directory ($XDG_CONFIG_HOME or ~/.config, on
	// every OS), in that order, the later winning
	// (packages/opencode/src/config/config.ts, global()); its docs name
	// opencode.json.
	opencode := filepath.Join(env.xdgConfig(), "opencode")
	// Goose keeps its config where the etcetera crate puts an app's:
	// $XDG_CONFIG_HOME/goose or ~/.config/goose on Linux and macOS alike,
	// %APPDATA%\Block\goose\config on Windows; GOOSE_PATH_ROOT, when
	// absolute, moves it to ROOT/config (crates/goose/src/config/paths.rs).
	goose := filepath.Join(env.xdgConfig(), "goose")
	if env.GOOS == "windows" {
		goose = filepath.Join(appConfig, "Block", "goose", "config")
	}
	if dir := env.Getenv("GOOSE_PATH_ROOT"); filepath.IsAbs(dir) {
		goose = filepath.Join(dir, "config")
	}
	// Continue's global directory is $CONTINUE_GLOBAL_DIR, else
	// ~/.continue on every OS (core/util/paths.ts).
	continueDir := home(".continue")
	if dir := env.Getenv("CONTINUE_GLOBAL_DIR"); filepath.IsAbs(dir) {
		continueDir = dir
	}
	// Hermes Agent's home is $HERMES_HOME, else ~/.hermes, or
	// %LOCALAPPDATA%\hermes on Windows, either with the literal
	// $HERMES_DATA_DIR_SUFFIX (hermes_constants.py, get_hermes_home()).
	hermes := home(".hermes" + env.Getenv("HERMES_DATA_DIR_SUFFIX"))
	if env.GOOS == "windows" {
		local := strings.TrimSpace(env.Getenv("LOCALAPPDATA"))
		if local == "" {
			local = home("AppData", "Local")
		}
		hermes = filepath.Join(local, "hermes"+env.Getenv("HERMES_DATA_DIR_SUFFIX"))
	}
	if dir := strings.TrimSpace(env.Getenv("HERMES_HOME")); dir != "" {
		hermes = dir
	}
	// Amp reads ~/.config/amp/settings.json or settings.jsonc, under the
	// home directory on Windows too (%USERPROFILE%\.config\amp).
	amp := home(".config", "amp")
	// Crush's JSON config (deprecated beside its crushrc) is
	// $CRUSH_GLOBAL_CONFIG/crush.json, else crush/crush.json in
	// $XDG_CONFIG_HOME or ~/.config on every OS (internal/config/load.go,
	// GlobalConfig; internal/home, Config).
	crush := filepath.Join(env.xdgConfig(), "crush")
	if dir := env.Getenv("CRUSH_GLOBAL_CONFIG"); filepath.IsAbs(dir) {
		crush = dir
	}
	// Grok Build keeps its settings in $GROK_HOME, else ~/.grok, on every
	// OS (docs.x.ai/build/settings).
	grok := home(".grok")
	if dir := env.Getenv("GROK_HOME"); filepath.IsAbs(dir) {
		grok = dir
	}
	// Pi's agent directory is $PI_CODING_AGENT_DIR, else ~/.pi/agent; the
	// pi-mcp-adapter extension, Pi's MCP, reads mcp.json there.
	pi := home(".pi", "agent")
	if dir := env.Getenv("PI_CODING_AGENT_DIR"); filepath.IsAbs(dir) {
		pi = dir
	}
	// Jan's data folder is Jan/data in the OS's data directory (dirs'
	// data_dir: $XDG_DATA_HOME or ~/.local/share, Application Support,
	// %APPDATA%), whose root $JAN_DATA_ROOT moves
	// (src-tauri/src/core/app/paths.rs).
	jan := filepath.Join(env.dataDir(), "Jan", "data")
	if dir := env.Getenv("JAN_DATA_ROOT"); filepath.IsAbs(dir) {
		jan = filepath.Join(dir, "Jan", "data")
	}
	vscode := func(id, name, folder string) Host {
		user := filepath.Join(appConfig, folder, "User")
		return Host{ID: id, Name: name, Config: filepath.Join(user, "mcp.json"), Key: "servers", Format: JSONC, Profiles: user}
	}
	devin := home(".config", "devin", "config.json")
	if env.GOOS == "windows" {
		devin = filepath.Join(appConfig, "devin", "config.json")
	}
	known := []Host{
		// modelcontextprotocol.io/docs/develop/connect-local-servers (no Linux build; its community builds use ~/.config/Claude)
		{ID: "claude-desktop", Name: "Claude Desktop", Config: filepath.Join(appConfig, "Claude", "claude_desktop_config.json"), Key: "mcpServers", Format: JSON},
		// code.claude.com/docs/en/mcp: user scope is the top-level
		// mcpServers, local scope (`claude mcp add` without --scope) the
		// mcpServers of projects["<dir>"]; $CLAUDE_CONFIG_DIR/.claude.json
		// when that is set.
		{ID: "claude-code", Name: "Claude Code", Config: claudeCode, Key: "mcpServers", Format: JSON, Projects: "projects"},
		// cursor.com/docs/context/mcp
		{ID: "cursor", Name: "Cursor", Config: home(".cursor", "mcp.json"), Key: "mcpServers", Format: JSON},
		// code.visualstudio.com/docs/copilot/reference/mcp-configuration;
		// Insiders and VSCodium keep their user folder under their own
		// names (code.visualstudio.com/docs/configure/settings, "Settings
		// file locations"; vscodium.com docs).
		// The default profile's servers are in User/mcp.json, another
		// profile's in User/profiles/ID/mcp.json (ProfilesOf).
		vscode("vscode", "VS Code", "Code"),
		vscode("vscode-insiders", "VS Code Insiders", "Code - Insiders"),
		vscode("vscodium", "VSCodium", "VSCodium"),
		// docs.windsurf.com/windsurf/cascade/mcp: remote entries use serverUrl
		{ID: "windsurf", Name: "Windsurf / Devin Desktop", Config: home(".codeium", "windsurf", "mcp_config.json"), Key: "mcpServers", Format: JSON},
		// zed.dev/docs/ai/mcp, zed.dev/docs/configuring-zed
		{ID: "zed", Name: "Zed", Config: filepath.Join(zed, "settings.json"), Key: "context_servers", Format: JSONC},
		// developers.openai.com/codex/config-reference
		{ID: "codex", Name: "Codex", Config: filepath.Join(codex, "config.toml"), Key: "mcp_servers", Format: TOML},
		// lmstudio.ai/docs/app/mcp: mcp.json in LM Studio's home
		{ID: "lmstudio", Name: "LM Studio", Config: filepath.Join(env.lmstudioHome(), "mcp.json"), Key: "mcpServers", Format: JSON},
		// geminicli.com/docs/tools/mcp-server; settings.json is read with
		// strip-json-comments (packages/cli/src/config/settings.ts), and
		// MCPServerConfig (packages/core/src/config/config.ts) has httpUrl.
		{ID: "gemini", Name: "Gemini CLI", Config: filepath.Join(gemini, "settings.json"), Key: "mcpServers", Format: JSONC, Shape: Gemini},
		// docs.github.com, "Using GitHub Copilot CLI": ~/.copilot/mcp-config.json
		// (github/docs pull 41226); entries add "type" ("local") and "tools".
		{ID: "copilot", Name: "GitHub Copilot CLI", Config: filepath.Join(copilot, "mcp-config.json"), Key: "mcpServers", Format: JSON},
		// opencode.ai/docs/mcp-servers; read with jsonc-parser, trailing commas allowed
		{ID: "opencode", Name: "opencode", Config: env.firstOf(filepath.Join(opencode, "opencode.json"), filepath.Join(opencode, "opencode.json"), filepath.Join(opencode, "opencode.jsonc"), filepath.Join(opencode, "config.json")), Key: "mcp", Format: JSONC, Shape: OpenCode},
		// qwenlm.github.io/qwen-code-docs, "Connect Qwen Code to tools via
		// MCP": user scope ~/.qwen/settings.json; QWEN_HOME moves it
		// (getGlobalQwenDir). A Gemini CLI fork: its entries are Gemini's.
		{ID: "qwen", Name: "Qwen Code", Config: filepath.Join(qwen, "settings.json"), Key: "mcpServers", Format: JSONC, Shape: Gemini},
		// kiro.dev/docs/mcp/configuration: user level ~/.kiro/settings/mcp.json
		{ID: "kiro", Name: "Kiro", Config: home(".kiro", "settings", "mcp.json"), Key: "mcpServers", Format: JSON},
		// docs.aws.amazon.com/amazonq/latest/qdeveloper-ug/mcp-ide.html: the
		// global mcp.json both Q in the IDE and the Q CLI read (default.json
		// and the CLI's agents hold servers in an agent's format of their own)
		{ID: "amazonq", Name: "Amazon Q", Config: home(".aws", "amazonq", "mcp.json"), Key: "mcpServers", Format: JSON},
		// docs.cline.bot/mcp/configuring-mcp-servers: cline_mcp_settings.json
		// in the extension's settings folder
		{ID: "cline", Name: "Cline", Config: extension("saoudrizwan.claude-dev", "cline_mcp_settings.json"), Key: "mcpServers", Format: JSON, Shape: Cline},
		// docs.roocode.com/features/mcp/using-mcp-in-roo
		{ID: "roo-code", Name: "Roo Code", Config: extension("rooveterinaryinc.roo-cline", "mcp_settings.json"), Key: "mcpServers", Format: JSON, Shape: Cline},
		// kilo.ai/docs/features/mcp: the extension's global storage, as Roo Code's
		{ID: "kilo-code", Name: "Kilo Code", Config: extension("kilocode.kilo-code", "mcp_settings.json"), Key: "mcpServers", Format: JSON, Shape: Cline},
		// docs.devin.ai/cli/extensibility/mcp/configuration: user scope
		// ~/.config/devin/config.json, %APPDATA%\devin\config.json on Windows
		{ID: "devin", Name: "Devin CLI", Config: devin, Key: "mcpServers", Format: JSON},
		// moonshotai.github.io/kimi-cli/en/customization/mcp.html: ~/.kimi/mcp.json
		{ID: "kimi", Name: "Kimi Code CLI", Config: home(".kimi", "mcp.json"), Key: "mcpServers", Format: JSON, Shape: Kimi},
		// block.github.io/goose/docs/guides/config-files: extensions in
		// config.yaml; an entry is an ExtensionEntry, "enabled" and the
		// ExtensionConfig tagged by "type" (crates/goose/src/agents/extension.rs)
		{ID: "goose", Name: "Goose", Config: filepath.Join(goose, "config.yaml"), Key: "extensions", Format: YAML, Shape: Goose},
		// docs.continue.dev/customize/deep-dives/mcp: mcpServers in
		// config.yaml, a list (packages/config-yaml/src/schemas/mcp)
		{ID: "continue", Name: "Continue", Config: filepath.Join(continueDir, "config.yaml"), Key: "mcpServers", Format: YAML, Shape: Continue},
		// hermes-agent.nousresearch.com/docs/user-guide/features/mcp:
		// mcp_servers in config.yaml, command/args/env or url/headers
		{ID: "hermes", Name: "Hermes Agent", Config: filepath.Join(hermes, "config.yaml"), Key: "mcp_servers", Format: YAML},
		// ampcode.com/manual, "Configuration": user settings in
		// ~/.config/amp/settings.json or settings.jsonc (JSONC), servers
		// under the dotted top-level key "amp.mcpServers"
		{ID: "amp", Name: "Amp", Config: env.firstOf(filepath.Join(amp, "settings.json"), filepath.Join(amp, "settings.json"), filepath.Join(amp, "settings.jsonc")), Key: "amp.mcpServers", Format: JSONC},
		// docs.factory.ai/cli/configuration/mcp (Factory-AI/factory,
		// docs/cli/configuration/mcp.mdx): user level ~/.factory/mcp.json,
		// %USERPROFILE%\.factory on Windows (settings.mdx); "type" stdio,
		// http or sse
		{ID: "droid", Name: "Factory Droid", Config: home(".factory", "mcp.json"), Key: "mcpServers", Format: JSON},
		// charmbracelet/crush docs/config/README.md, "Legacy JSON":
		// crush.json, JSONC (trailing commas in its own example), servers
		// under "mcp" with "type" stdio, http or sse
		{ID: "crush", Name: "Crush", Config: filepath.Join(crush, "crush.json"), Key: "mcp", Format: JSONC, Shape: Crush},
		// charmbracelet/crush README.md, "Configuration": crushrc beside
		// crush.json, %USERPROFILE%\.config\crush on Windows
		{ID: "crush-rc", Name: "Crush (crushrc)", Config: filepath.Join(crush, "crushrc"), Key: "mcp", ReadOnly: "a crushrc is a Bash script that Crush runs (mcp add …), not data: what it configures is known only by running it"},
		// junie.jetbrains.com/docs/junie-cli-mcp-configuration.html: user
		// level ~/.junie/mcp/mcp.json, shared with the IDE plugin
		{ID: "junie", Name: "JetBrains Junie", Config: home(".junie", "mcp", "mcp.json"), Key: "mcpServers", Format: JSON},
		// docs.warp.dev/agent-platform/capabilities/mcp, "File-based MCP
		// servers"; warpdotdev/warp crates/warp_core/src/paths.rs
		// (warp_home_mcp_config_file_path: ~/.warp on every OS). A url
		// is reached by Streamable HTTP. Servers added in Warp's settings
		// are kept in its database instead.
		{ID: "warp", Name: "Warp", Config: home(".warp", ".mcp.json"), Key: "mcpServers", Format: JSON},
		// docs.x.ai/build/features/mcp-servers: [mcp_servers.NAME] in
		// config.toml, headers in "headers"; its tool_timeout_sec is 6000
		// unless set, longer than routing would give
		{ID: "grok", Name: "Grok Build", Config: filepath.Join(grok, "config.toml"), Key: "mcp_servers", Format: TOML, Shape: Grok},
		// antigravity.google/docs/mcp ("View raw config"): mcp_config.json,
		// ~/.gemini/config since Antigravity 2 (its CLI too), before that
		// ~/.gemini/antigravity; remote entries use serverUrl
		{ID: "antigravity", Name: "Antigravity", Config: env.firstOf(home(".gemini", "config", "mcp_config.json"), home(".gemini", "config", "mcp_config.json"), home(".gemini", "antigravity", "mcp_config.json")), Key: "mcpServers", Format: JSON},
		// src-tauri/src/core/mcp/helpers.rs: mcp_config.json in the data
		// folder; "type" "http" (Streamable HTTP) or "sse"
		{ID: "jan", Name: "Jan", Config: filepath.Join(jan, "mcp_config.json"), Key: "mcpServers", Format: JSON, Shape: Cline},
		// docs.anythingllm.com/mcp-compatibility/overview: storage/plugins/
		// anythingllm_mcp_servers.json; the desktop app's storage is in its
		// user data folder (docs.anythingllm.com/installation-desktop/debug).
		// A url without a "type" is reached by SSE
		// (server/utils/MCP/hypervisor/index.js).
		{ID: "anythingllm", Name: "AnythingLLM", Config: filepath.Join(appConfig, "anythingllm-desktop", "storage", "plugins", "anythingllm_mcp_servers.json"), Key: "mcpServers", Format: JSON, Shape: Cline},
		// nbonamy/witsy src/main/config.ts and mcp.ts: settings.json in
		// Electron's userData holds servers in mcp.servers
		{ID: "witsy", Name: "Witsy", Config: filepath.Join(appConfig, "Witsy", "settings.json"), Key: "mcp", ReadOnly: "Witsy keeps a server's arguments as one string it splits at spaces (mcp.servers[].url), which cannot hold the bridge's command line exactly"},
		// pi-mcp-adapter README, "Configuration Files": ~/.pi/agent/mcp.json
		// ($PI_CODING_AGENT_DIR/mcp.json)
		{ID: "pi", Name: "Pi", Config: filepath.Join(pi, "mcp.json"), Key: "mcpServers", Format: JSON, Shape: Cline},
	}
	if env.GOOS == "linux" {
		// Zed from Flathub keeps its settings in the sandbox's config
		// directory: crates/paths config_dir() reads FLATPAK_XDG_CONFIG_HOME,
		// which is ~/.var/app/dev.zed.Zed/config (flathub/dev.zed.Zed).
		known = append(known, Host{ID: "zed-flatpak", Name: "Zed (Flatpak)", Config: home(".var", "app", "dev.zed.Zed", "config", "zed", "settings.json"), Key: "context_servers", Format: JSONC})
	}
	if env.GOOS == "darwin" {
		// docs.boltai.com/docs/plugins/mcp-servers, FAQs: ~/.boltai/mcp.json
		// (BoltAI is a macOS app)
		known = append(known, Host{ID: "boltai", Name: "BoltAI", Config: home(".boltai", "mcp.json"), Key: "mcpServers", Format: JSON})
	}
	return known
}

// Lookup returns the host called id.
func Lookup(hosts []Host, id string) (Host, bool) {
	for _, h := range hosts {
		if h.ID == id {
			return h, true
		}
	}
	return Host{}, false
}

// configDir is where desktop apps keep their settings, as os.UserConfigDir
// says for env's OS.
func (env Env) configDir() string {
	switch env.GOOS {
	case "windows":
		if dir := env.Getenv("APPDATA"); dir != "" {
			return dir
		}
		return filepath.Join(env.Home, "AppData", "Roaming")
	case "darwin", "ios":
		return filepath.Join(env.Home, "Library", "Application Support")
	}
	return env.xdgConfig()
}

// dataDir is where apps keep their data, as the dirs crate's data_dir
// says for env's OS.
func (env Env) dataDir() string {
	switch env.GOOS {
	case "windows", "darwin", "ios":
		return env.configDir()
	}
	if dir := env.Getenv("XDG_DATA_HOME"); filepath.IsAbs(dir) {
		return dir
	}
	return filepath.Join(env.Home, ".local", "share")
}

// xdgConfig is $XDG_CONFIG_HOME, or ~/.config when it is unset or relative.
func (env Env) xdgConfig() string {
	if dir := env.Getenv("XDG_CONFIG_HOME"); filepath.IsAbs(dir) {
		return dir
	}
	return filepath.Join(env.Home, ".config")
}

// Here is the Env of this process's user.
func Here() Env {
	home, _ := os.UserHomeDir()
	exists := func(path string) bool {
		_, err := os.Stat(path)
		return err == nil
	}
	return Env{GOOS: runtime.GOOS, Home: home, Getenv: os.Getenv, Exists: exists, ReadFile: os.ReadFile}
}
