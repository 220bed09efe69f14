/**
 * The REST/JSON endpoint (Jersey, JAX-RS) under {@code /api}: thin resources that translate HTTP
 * to the application layer and its errors to {@code application/problem+json}.
 */
package dev.idiom.services.rest;
