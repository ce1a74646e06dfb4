/*
 * The server side of DLF authentication for rest-server: RESTCatalogServer calls
 * mergeAuthHeader(requestHeaders, request) on every request and answers 401 unless the
 * Authorization it returns equals the one the client sent. Java Paimon 1.4.2's own
 * DLFAuthProvider cannot do that (it signs with the current time and a fresh nonce), and the
 * tests jar's TestDLFAuthProvider is a private nested class of MockRESTCatalogTest, so this one
 * recomputes the signature with Paimon's signers from the client's own signed headers
 * (x-dlf-date, Content-MD5, ... for the default signer; Date, Accept and x-acs-* for openapi)
 * and the configured key.
 *
 * The signer is picked from the client's Authorization scheme: "DLF4-HMAC-SHA256 ..." is
 * DLFDefaultSigner (region from --dlf-region), "acs AK:SIG" is DLFOpenApiSigner. Anything else
 * (for example pypaimon's "ACS4-HMAC-SHA256", the openapi-v4 signer that Java 1.4.2 does not
 * have) never verifies. The security token, when the server has one, must be the one sent in
 * x-dlf-security-token / x-acs-security-token; when it has none, none may be sent. Dates are
 * not checked against the clock (neither does MockRESTCatalogTest).
 */
package org.cpaimon.javatool;

import org.apache.paimon.rest.auth.AuthProvider;
import org.apache.paimon.rest.auth.DLFDefaultSigner;
import org.apache.paimon.rest.auth.DLFOpenApiSigner;
import org.apache.paimon.rest.auth.DLFRequestSigner;
import org.apache.paimon.rest.auth.DLFToken;
import org.apache.paimon.rest.auth.RESTAuthParameter;

import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

final class DlfVerifier implements AuthProvider {
    private static final String AUTHORIZATION = "Authorization";
    /** What mergeAuthHeader answers when a request cannot verify: never a client's value. */
    private static final String REJECTED = "<rejected>";

    private final DLFToken token;
    private final DLFDefaultSigner defaultSigner;
    private final DLFOpenApiSigner openApiSigner = new DLFOpenApiSigner();

    DlfVerifier(String accessKeyId, String accessKeySecret, String securityToken, String region) {
        this.token = new DLFToken(accessKeyId, accessKeySecret, securityToken, null);
        this.defaultSigner = new DLFDefaultSigner(region);
    }

    @Override
    public Map<String, String> mergeAuthHeader(
            Map<String, String> requestHeaders, RESTAuthParameter request) {
        Map<String, String> out = new HashMap<>(requestHeaders);
        out.put(AUTHORIZATION, expected(requestHeaders, request));
        return out;
    }

    private String expected(Map<String, String> requestHeaders, RESTAuthParameter request) {
        // RESTCatalogServer hands the headers over with lower-cased names; the signers look some
        // up as "Date", "Accept", "Content-MD5".
        TreeMap<String, String> headers = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        headers.putAll(requestHeaders);
        String sent = headers.get(AUTHORIZATION);
        if (sent == null) {
            return REJECTED;
        }
        DLFRequestSigner signer;
        String tokenHeader;
        if (sent.startsWith("DLF4-HMAC-SHA256 ")) {
            signer = defaultSigner;
            tokenHeader = "x-dlf-security-token";
        } else if (sent.startsWith("acs ")) {
            signer = openApiSigner;
            tokenHeader = "x-acs-security-token";
        } else {
            return REJECTED;
        }
        if (!Objects.equals(headers.get(tokenHeader), token.getSecurityToken())) {
            return REJECTED;
        }
        try {
            return signer.authorization(request, token, headers.getOrDefault("Host", ""),
                    headers);
        } catch (Exception e) {
            // A missing signed header (no x-dlf-date, no Date) and the like: not authorised.
            return REJECTED;
        }
    }
}
