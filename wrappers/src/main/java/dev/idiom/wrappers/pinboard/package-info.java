/** Pinboard API v1 (the del.icio.us-compatible API): GET methods, auth_token, strict pacing. */
package dev.idiom.wrappers.pinboard;
