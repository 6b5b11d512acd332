// Package tengen holds Tengen's domain types and service interfaces: users,
// games, challenges and the errors that every layer shares. Technology lives in
// subpackages (sqlite, http, ...) that implement these interfaces and never
// import each other; cmd/tengen wires them together.
package tengen
