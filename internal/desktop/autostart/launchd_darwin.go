package autostart

// native is the desktop's own way: a LaunchAgent.
func native() fileFormat { return launchAgents() }
