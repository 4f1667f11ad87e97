//go:build !linux

package resident

func dropStartupPages() error { return nil }
