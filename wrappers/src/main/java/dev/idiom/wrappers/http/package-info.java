/** HTTP shared by the web-tool adapters: pacing, concurrency limits, retries with backoff, auth errors. */
package dev.idiom.wrappers.http;
