// Package wire writes the bytes gomastra's HTTP surfaces (package server,
// server/aisdk, stream and mcpserver) put on the wire, in one place:
//
//   - string escaping, with the choice between JSON.stringify's rules and
//     encoding/json's explicit (Escaping, AppendString);
//   - the JavaScript-flavoured marshals: encoding/json's rendering with
//     JSON.stringify's string escaping (Marshal, UnescapeJS), and
//     JSON.stringify's rendering of a Go value's JSON (AppendValue,
//     AppendStringified, StringifyText);
//   - an ordered JSON object value (Object, Decode), rendered as
//     JSON.stringify renders it (its Members) or member for member as it
//     stands (AppendAsIs), and Zod's keyword order for JSON Schemas held
//     in it (SortSchema);
//   - an object writer that appends members in the order written
//     (ObjectWriter);
//   - server-sent-event and record framing (Framer, StartSSE,
//     StartRecords) and JSON answers (WriteJSON);
//   - the issues of a bad request and Mastra's error body (Issue,
//     AppendError), and V8's JSON.parse message for a body that is not
//     JSON (SyntaxError).
//
// Everything here renders exactly the bytes the callers rendered before
// it was shared; where callers differ, the difference is a parameter.
package wire
