// Package htmltext renders HTML pages as readable Markdown-flavoured text
// for a language model: the words of the page, with its structure, and
// without its code and furniture.
//
// Dropped: the head, scripts, styles, noscript, templates, SVG and MathML,
// embedded objects and media, form controls, nav and aside, the page's
// own header and footer (those inside an article, section or main are
// kept), ARIA landmarks of the same kinds (navigation, banner,
// contentinfo, complementary, search, menus, dialogs) and hidden elements
// (hidden, aria-hidden="true", inline display:none or
// visibility:hidden).
//
// Kept: headings as "#" lines, paragraphs and blocks separated by blank
// lines, lists as "- " and "1. " items (nested ones indented), links as
// [text](url) with the url resolved against the page (links to the page
// itself and non-web schemes keep only their text), images as their alt
// text, inline code in backticks, preformatted text in fenced blocks,
// block quotes with "> ", data tables as "| a | b |" rows (layout tables
// as the blocks they hold), <br> as a line break, <hr> as "---".
//
// Text is not escaped for Markdown: the output is meant to be read, not
// rendered.
package htmltext
