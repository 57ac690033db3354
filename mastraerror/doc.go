// Package mastraerror is gomastra's one error model: [Error], Mastra's
// MastraError (an id, a domain, a category, a message, details and a
// wrapped cause), the ids the project's packages report, the JSON forms
// the errors are written in, and [HTTPStatus], the one mapping from an
// error to the HTTP status a server answers it with.
//
// The package imports nothing of gomastra's, so that every package —
// the registry (package mastra), agent, workflows, mcpclient, mcpserver,
// server, server/aisdk, storage — can build and inspect these errors.
// mastra.Error, agent.RunError and workflows.Error are aliases of [Error].
//
// # Contract
//
//   - An *Error's Error() is its Message; Unwrap returns its Cause.
//   - errors.Is(err, target) holds for an *Error in err's chain when
//     target is an *Error with the same non-empty ID, or a [Sentinel]
//     naming its ID.
//   - An *Error with a Domain stands for one of Mastra's MastraErrors; one
//     without stands for a plain JavaScript Error (gomastra may still give
//     it an ID, so that Go callers can tell it apart). [Error.Name] says
//     which, and the JSON forms follow it.
//   - JSON: encoding/json writes an *Error in the form gomastra's agents
//     write in error chunks and FullOutput.error (see [Error]);
//     [Error.MarshalMastra] writes MastraError.toJSON().
//   - [HTTPStatus] is total: every non-nil error has a status (500 by
//     default).
package mastraerror
