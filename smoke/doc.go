// Package smoke is a tiny package that notebooks import to prove that the
// notebook kernel can load this module's own code, and that a picture drawn
// with gonum/plot reaches the notebook. It has no other use.
//
// It lives outside internal/ on purpose: the kernel builds every import as
// a Go plugin in a module of its own, which may not import another module's
// internal packages. Its exported API uses only basic types: the kernel's
// interpreter (gomacro) panics ("unsupported types.Type: *types.TypeParam")
// on any package whose exported types lead, even through unexported fields
// or methods, to a type of gonum/plot's plot, plotter, draw, text or font
// packages, because those lead to sync, whose Go 1.21 API has generic
// functions.
package smoke
