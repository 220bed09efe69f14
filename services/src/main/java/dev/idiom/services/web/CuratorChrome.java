package dev.idiom.services.web;

/**
 * What every page of the curator's workspace shows around its content: where Idiom is served
 * ({@code base}), the session's CSRF token for its forms, who is logged in, how many decisions wait
 * for a person, how many accounts there are, and which section the page is ({@code inbox},
 * {@code library}, {@code record}, {@code new}, {@code trash}).
 */
record CuratorChrome(String base, String csrf, String who, long waiting, int accounts, String section) {
    CuratorChrome in(String other) {
        return new CuratorChrome(base, csrf, who, waiting, accounts, other);
    }
}
