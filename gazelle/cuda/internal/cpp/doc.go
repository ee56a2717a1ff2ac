// Package cpp is the C preprocessor that the CUDA Gazelle extension
// (gazelle/cuda) reads sources with: the directives of a C, C++ or CUDA
// source (ParseDirectives, ParseIncludes; comments, string, character and
// raw string literals honoured), the #if/#ifdef expressions evaluated over a
// macro table in three-valued truth (EvalCondition, Macros, Tri: what the
// extension cannot know is Maybe), the facts a build needs besides the
// includes (ScanSource: device launches, extern device declarations, main)
// and which headers the system provides (SystemHeader). It uses only the
// standard library; the walk over a translation unit, which needs the
// extension's configuration, stays in gazelle/cuda.
//
// It reads untrusted bytes (any repository's sources): every function
// returns for any input, without panicking, in time linear or close to it
// in the input's size (FuzzParseDirectives, FuzzEvalCondition and
// FuzzScanSource check this, with the CUDA toolkit's headers as seeds).
package cpp
