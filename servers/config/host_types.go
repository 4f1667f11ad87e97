package config

import "slices"

// HostRemoteTypes are the "type" values hosts write for a remote server,
// in the order messages list them: Streamable HTTP goes by three names.
func HostRemoteTypes() []string {
	return []string{"http", "streamable-http", "streamableHttp", "sse"}
}

// HostRemoteTransport is the transport a host's remote "type" names.
func HostRemoteTransport(hostType string) (Transport, bool) {
	switch {
	case hostType == "sse":
		return TransportSSE, true
	case slices.Contains(HostRemoteTypes(), hostType):
		return TransportHTTP, true
	}
	return "", false
}
