// Package studio is gomastra's dev studio: the page the dev server shows
// at "/", a small counterpart of Mastra's playground. It lists the
// registry's agents, tools and workflows; runs a tool from a form made
// from its input schema; starts a workflow; and chats with an agent over
// the streaming API, showing text as it streams, tool calls whose
// arguments fill in live, their results and errors, approval requests
// (Approve / Decline) and questions a tool asks (ask_user), answered in
// place. A chat with memory shows its thread's earlier messages when it
// opens (the memory API: text, tool calls with their arguments and
// results, and calls still waiting, with their decision), and lists the
// chat's threads to switch between. An answer outlives the page: the page remembers the run it
// started until the answer is over, and after a reload it shows the
// message again and follows the run (the agent observe route, from the
// run's first event) to its end; Stop aborts a thread's run. Its
// sidebar lists the background tasks running (or suspended) as the
// API's task event stream reports them, each with a Cancel button.
//
// The page is hand-written HTML, CSS and JavaScript modules embedded in
// the binary: no Node build, no CDN, no external font. It talks only to
// the API of the server it is served by (its Content-Security-Policy
// allows nothing else), with an optional bearer token the user enters in
// its settings (kept in the browser's localStorage).
//
// Mount it beside the API:
//
//	srv := server.New(m, server.Options{Studio: studio.Handler(studio.Options{})})
//
// The server hands it every GET and HEAD outside the API prefix, /health
// and the custom routes; it serves the page for "/" and for any other
// path that does not name a file (so the page's own links, such as
// /agents/weather-agent, survive a reload), the assets under /assets/,
// and 404 for files it does not have.
package studio
