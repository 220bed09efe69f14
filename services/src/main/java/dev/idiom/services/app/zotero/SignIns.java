package dev.idiom.services.app.zotero;

import dev.idiom.events.zotero.ServedLibraries;
import dev.idiom.events.zotero.ServedLibraries.SignIn;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Optional;
import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.PBEKeySpec;

/**
 * The name and password a served user's clients sign in with to be given a key (Zotero desktop 7 and
 * 8 ask for them and {@code POST /keys}; 9 uses {@code keys/sessions} instead). Idiom makes the
 * password and says it once; it keeps a salted PBKDF2 hash, slow enough that a stolen table is not a
 * list of passwords, checked in the same time whether or not the name exists.
 */
public final class SignIns {
    private static final String ALGORITHM = "PBKDF2WithHmacSHA256";
    /** OWASP's figure for PBKDF2-HMAC-SHA256 (2023): about 0.2 s a check on this project's 2-core machine. */
    static final int ITERATIONS = 600_000;
    private static final Base64.Encoder B64 = Base64.getEncoder().withoutPadding();

    private final ServedLibraries store;
    private final SecureRandom random = new SecureRandom();
    /** What an unknown name is checked against, so it takes as long as a known one (made at the first: a start stays quick). */
    private volatile String decoy;

    SignIns(ServedLibraries store) {
        this.store = store;
    }

    /** Gives the user a new password under {@code username} (the old one stops working); the password, said once. */
    public String renew(long userNumber, String username) {
        String password = newPassword();
        store.putSignIn(new SignIn(userNumber, username, hash(password)));
        return password;
    }

    /** The user a name and password sign in, if they do. */
    public Optional<Long> authenticate(String username, String password) {
        Optional<SignIn> known = username == null ? Optional.empty() : store.signIn(username);
        boolean right = matches(password == null ? "" : password, known.map(SignIn::passwordHash).orElseGet(this::decoy));
        return right ? known.map(SignIn::userNumber) : Optional.empty();
    }

    private String decoy() {
        if (decoy == null) {
            decoy = hash(newPassword());
        }
        return decoy;
    }

    /** The name the user signs in with, if any. */
    public Optional<String> username(long userNumber) {
        return store.signInOf(userNumber).map(SignIn::username);
    }

    private String newPassword() {
        byte[] b = new byte[18]; // 144 bits, 24 characters: typed once into desktop's login form
        random.nextBytes(b);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(b);
    }

    private String hash(String password) {
        byte[] salt = new byte[16];
        random.nextBytes(salt);
        return "pbkdf2-sha256$" + ITERATIONS + "$" + B64.encodeToString(salt) + "$" + B64.encodeToString(derive(password, salt, ITERATIONS));
    }

    private static boolean matches(String password, String stored) {
        String[] p = stored.split("\\$");
        if (p.length != 4 || !p[0].equals("pbkdf2-sha256")) {
            return false;
        }
        byte[] expected = Base64.getDecoder().decode(p[3]);
        return MessageDigest.isEqual(expected, derive(password, Base64.getDecoder().decode(p[2]), Integer.parseInt(p[1])));
    }

    private static byte[] derive(String password, byte[] salt, int iterations) {
        PBEKeySpec spec = new PBEKeySpec(password.toCharArray(), salt, iterations, 256);
        try {
            return SecretKeyFactory.getInstance(ALGORITHM).generateSecret(spec).getEncoded();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(ALGORITHM + " is part of every JDK", e);
        } finally {
            spec.clearPassword();
        }
    }
}
