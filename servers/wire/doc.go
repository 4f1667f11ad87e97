// Package wire wraps mcp-go v1.2.1's client transports (stdio, Streamable
// HTTP and HTTP+SSE) where they fall short of a client whose answers come
// from a person and may take minutes. Each gap it fills:
//
//   - mcp-go reads every line, event and JSON body whole, however long:
//     one 1000 MiB line took the app past 3 GB. The taps read no message
//     past link.MaxMessage, the bridge's limit too, on every transport: a
//     longer one is followed to its end for its envelope only, then a
//     request in it is refused, an answer ends its call at once with
//     ErrAnswerTooLarge, anything else is dropped, and the next message
//     reads as usual; a longer JSON body ends in ErrAnswerTooLarge;
//   - elicitation/create arrives decoded into maps, which loses the order of
//     the schema's fields: taps (lineTap on stdio, sseTap on HTTP) keep each
//     request's raw bytes, and the wire answers from them;
//   - a request mcp-go cannot decode (a number beyond float64, nesting past
//     10,000 levels) is dropped without an answer: the taps read requests
//     whatever they hold, mcp-go sees only a stub of each, and the
//     AnswerFunc refuses what is over the limits (see CheckParams); any
//     other request mcp-go cannot decode is answered -32602 with the
//     reason CheckParams gives;
//   - a handler's error goes back as -32603: the wire answers with the
//     *RPCError its AnswerFunc returns, such as -32602 for unusable params;
//   - notifications/cancelled is only passed on: the wire ends the
//     request's context and sends no answer;
//   - on Streamable HTTP a server's request gets 30 seconds, and on HTTP+SSE
//     one that reuses a pending call's id is taken for that call's
//     response: sseTap takes requests out of the event streams and the wire
//     answers them with POSTs of its own, however long the person takes;
//   - a server's request outside any POST needs the standalone GET stream,
//     whose option mcp-go deprecates and which then pins sessions to
//     revisions before 2026-07-28: see continuousListening;
//   - any answer to the server/discover probe is taken for a 2026-07-28
//     server, even a legacy server's {}: the wire turns an answer without a
//     supported version into "method not found";
//   - a server/discover answered -32022 although the server lists the
//     version it carried is taken for a legacy server: the wire asks once
//     more, as 2026-07-28 says (see discover);
//   - the elicitations of 2026-07-28 input_required results reach the
//     handler decoded: WithInputs records their raw bytes for InputParams;
//   - a listed tool's inputSchema keeps five keywords and loses the rest
//     ($schema, allOf, if/then/else…): WithToolSchemas records the raw
//     schemas, and RawSchemas puts them back.
//
// Close ends every answer the wire started and waits for it.
package wire
