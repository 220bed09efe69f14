/**
 * What every HTTP face shares and none owns: the public URL a request was made under, the body
 * limit's error, the problem document (RFC 9457) every refusal is written as, a conflict's JSON.
 * Faces depend on it; it depends on no face.
 */
package dev.idiom.services.http;
