package dev.idiom.services.soap;

import dev.idiom.consistency.report.ConflictEntry;
import dev.idiom.services.citations.CitationFormat;
import dev.idiom.events.InvalidValueException;
import dev.idiom.events.SearchPage;
import dev.idiom.events.SearchQuery;
import dev.idiom.services.app.Application;
import dev.idiom.services.app.EntityReads;
import dev.idiom.services.app.EntityWrites;
import dev.idiom.services.app.ErrorCode;
import dev.idiom.consistency.report.ImportOutcome;
import dev.idiom.services.app.ImportRecords;
import dev.idiom.consistency.report.ImportSummary;
import dev.idiom.services.app.Caller;
import dev.idiom.services.app.Operation;
import dev.idiom.services.app.ServiceTime;
import dev.idiom.services.app.ReadPath;
import dev.idiom.services.app.ReplicaLinks;
import dev.idiom.services.app.ReplicaSync;
import dev.idiom.events.ConflictResolved;
import dev.idiom.events.RecordedEvent;
import java.util.Set;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.List;
import javax.xml.namespace.QName;
import org.apache.axiom.om.OMElement;
import org.apache.axiom.soap.SOAPEnvelope;
import org.apache.axiom.soap.SOAPFactory;
import org.apache.axis2.AxisFault;
import org.apache.axis2.context.MessageContext;
import org.apache.axis2.kernel.http.HTTPConstants;
import jakarta.servlet.http.HttpServletRequest;
import org.apache.axis2.receivers.AbstractInOutMessageReceiver;

/**
 * The message receiver of every DigitalEntityService operation: reads the request element, calls
 * the application layer, writes the response element. Errors become SOAP faults whose code is
 * stable (Invalid, NotFound, StaleVersion, Unavailable, Internal).
 */
final class DigitalEntitySoap extends AbstractInOutMessageReceiver {
    private static final Logger LOG = Logger.getLogger(DigitalEntitySoap.class.getName());

    private final EntityReads reads;
    private final EntityWrites writes;
    private final ImportRecords imports;
    private final ReplicaLinks replicas;
    private final ReplicaSync sync;
    private final dev.idiom.services.app.EntityLifecycle lifecycle;
    private final dev.idiom.services.tools.ToolAccounts accounts;
    private final dev.idiom.services.tools.Tools tools;
    private final SoapXml xml = new SoapXml();

    DigitalEntitySoap(Application app) {
        this.reads = app.reads();
        this.writes = app.writes();
        this.imports = app.imports();
        this.replicas = app.replicas();
        this.sync = app.sync();
        this.lifecycle = app.lifecycle();
        this.accounts = app.tools().accounts();
        this.tools = app.tools();
    }

    @Override
    public void invokeBusinessLogic(MessageContext in, MessageContext out) throws AxisFault {
        if (!in.isSOAP11()) {
            // the WSDL declares SOAP 1.1 only: refuse 1.2 envelopes the way SOAP says to
            AxisFault f = new AxisFault("this endpoint speaks SOAP 1.1 only (envelope namespace http://schemas.xmlsoap.org/soap/envelope/, "
                    + "Content-Type text/xml); see the WSDL", new QName(in.getEnvelope().getNamespace().getNamespaceURI(), "VersionMismatch"));
            f.setDetail(SoapXml.faultDetail("VersionMismatch", f.getMessage()));
            throw f;
        }
        OMElement request = in.getEnvelope().getBody().getFirstElement();
        String operation = in.getAxisOperation().getName().getLocalPart();
        HttpServletRequest http = in.getProperty(HTTPConstants.MC_HTTP_SERVLETREQUEST) instanceof HttpServletRequest r ? r : null;
        if (http != null) {
            http.setAttribute(ServiceTime.OPERATION, operation);
        }
        OMElement response;
        try {
            if (request == null) {
                throw new InvalidValueException("the SOAP body is empty; send a <" + operation + "> element");
            }
            // dispatch is the body's: its element must be the operation, in the WSDL's namespace
            if (!SoapXml.NS.equals(request.getNamespace() == null ? "" : request.getNamespace().getNamespaceURI())) {
                throw new InvalidValueException("<" + request.getLocalName() + "> is in namespace '"
                        + (request.getNamespace() == null ? "" : request.getNamespace().getNamespaceURI()) + "'; Idiom's operations are in " + SoapXml.NS);
            }
            if (!request.getLocalName().equals(operation)) {
                throw new InvalidValueException("the SOAPAction names operation '" + operation + "' but the body holds <" + request.getLocalName()
                        + ">; send the body's operation as SOAPAction (urn:idiom:" + request.getLocalName() + ") or an empty SOAPAction \"\"");
            }
            Caller caller = caller(in);
            caller.require(Operation.soap(operation));
            response = handle(operation, request, caller, caller.source("soap", header(in, "Idiom-Source")));
        } catch (RuntimeException e) {
            throw fault(e, http);
        }
        SOAPFactory soap = getSOAPFactory(in);
        SOAPEnvelope envelope = soap.getDefaultEnvelope();
        envelope.getBody().addChild(response);
        out.setEnvelope(envelope);
    }

    /** The caller the key check left on the HTTP request (every SOAP operation needs a key). */
    private static Caller caller(MessageContext in) {
        return Caller.of(in.getProperty(HTTPConstants.MC_HTTP_SERVLETREQUEST) instanceof HttpServletRequest r ? r.getAttribute(Caller.ATTRIBUTE) : null);
    }

    private OMElement handle(String operation, OMElement request, Caller caller, String source) {
        OMElement response = xml.element(operation + "Response");
        switch (operation) {
            case "empty" -> reads.empty();
            case "createDE" -> xml.entity(response, writes.create(xml.metadata(firstChild(request, "entity"), writes.limits()), source).entity());
            case "moreInfo" -> xml.entity(response,
                    reads.describe(id(request), ReadPath.parse(SoapXml.text(request, "source")), caller).entity());
            case "cite" -> {
                CitationFormat format = CitationFormat.named(SoapXml.required(request, "format"));
                String text = reads.cite(List.of(reads.describe(id(request), ReadPath.CACHE, caller).entity()), true, format,
                        SoapXml.text(request, "style"), SoapXml.text(request, "locale"), caller);
                xml.child(response, "mediaType", format.mediaType());
                xml.child(response, "citation", text);
            }
            case "updateDE" -> {
                Integer expected = SoapXml.integer(request, "expectedVersion");
                if (expected == null) {
                    throw new InvalidValueException("<updateDE> needs <expectedVersion>, the version you read");
                }
                String value = SoapXml.text(request, "value");
                xml.entity(response, writes.update(id(request), SoapXml.required(request, "field"), value == null ? "" : value,
                        expected, source).entity());
            }
            case "deleteDE" -> {
                Integer expected = SoapXml.integer(request, "expectedVersion");
                if (expected == null) {
                    throw new InvalidValueException("<deleteDE> needs <expectedVersion>, the version you read");
                }
                xml.entity(response, lifecycle.delete(id(request), expected, source).entity());
            }
            case "restoreDE" -> xml.entity(response, lifecycle.restore(id(request), source).entity());
            case "setReplication" -> {
                String mirror = SoapXml.text(request, "mirror");
                dev.idiom.services.tools.ToolAccount a = accounts.replicate(SoapXml.required(request, "tool"), mirror == null ? null : dev.idiom.services.tools.ToolAccounts.rule(mirror),
                        SoapXml.text(request, "direction"), SoapXml.text(request, "deletions"));
                xml.child(response, "tool", a.name());
                xml.child(response, "mirror", a.mirror().isTextual() ? a.mirror().asText() : a.mirror().toString());
                xml.child(response, "direction", a.direction());
                xml.child(response, "deletions", a.deletions());
            }
            case "history" -> reads.history(id(request), caller).forEach(e -> xml.event(response, e.event(), e.withheld()));
            case "search" -> {
                Integer limit = SoapXml.integer(request, "limit");
                SearchPage page = reads.search(new SearchQuery(SoapXml.text(request, "q"), SoapXml.text(request, "tag"),
                        SoapXml.text(request, "author"), SoapXml.year(request, "yearFrom"), SoapXml.year(request, "yearTo"),
                        SoapXml.text(request, "type"), SoapXml.text(request, "venue"), tools.filter(SoapXml.text(request, "tool")),
                        SoapXml.text(request, "cursor"), limit == null ? 50 : limit), caller);
                xml.searchPage(response, page);
            }
            case "download" -> {
                ImportOutcome o = imports.download(SoapXml.required(request, "tool"), SoapXml.required(request, "remoteId"));
                xml.child(response, "outcome", o.kind().name().toLowerCase(Locale.ROOT));
                if (o.entityId() != null) {
                    xml.child(response, "entityId", o.entityId().toString());
                }
                if (o.reason() != null) {
                    xml.child(response, "reason", o.reason());
                }
            }
            case "upload" -> {
                xml.replica(response, replicas.upload(id(request), SoapXml.required(request, "tool")));
            }
            case "importAll" -> {
                ImportSummary s = imports.importAccount(SoapXml.required(request, "tool"),
                        "true".equals(SoapXml.text(request, "fromStart")), (soFar, done, size, last) -> { });
                xml.child(response, "records", Integer.toString(s.records()));
                for (ImportOutcome.Kind k : ImportOutcome.Kind.values()) {
                    xml.child(response, k.name().toLowerCase(Locale.ROOT), Integer.toString(s.count(k)));
                }
                for (ImportOutcome o : s.skipped()) {
                    OMElement sk = xml.child(response, "skippedRecord", null);
                    if (o.remoteId() != null) {
                        xml.child(sk, "remoteId", o.remoteId());
                    }
                    xml.child(sk, "reason", o.reason());
                }
            }
            case "sync" -> {
                dev.idiom.consistency.report.SyncReport r = sync.sync(SoapXml.required(request, "tool"), "true".equals(SoapXml.text(request, "allowDeletions")),
                        (soFar, done, size, last) -> { });
                xml.child(response, "pulled", Integer.toString(r.pulled().records()));
                xml.child(response, "pushed", Integer.toString(r.pushedCount()));
                xml.child(response, "merged", Integer.toString(r.mergedCount()));
                xml.child(response, "conflicts", Integer.toString(r.pulled().conflicts()));
                xml.child(response, "unlinked", Integer.toString(r.unlinked()));
                xml.child(response, "parked", Long.toString(r.parkedCount()));
                if (r.held() != null) {
                    xml.child(response, "held", r.held());
                }
            }
            case "consistencyReport" -> {
                for (dev.idiom.consistency.report.AccountConsistency a : sync.report()) {
                    OMElement e = xml.child(response, "account", null);
                    xml.child(e, "name", a.name());
                    xml.child(e, "kind", a.kind());
                    xml.child(e, "paused", Boolean.toString(a.paused()));
                    if (a.held() != null) {
                        xml.child(e, "held", a.held());
                    }
                    for (var n : new Object[][] {{"replicas", a.replicas()}, {"inSync", a.inSync()}, {"pending", a.pending()}, {"parked", a.parked()},
                            {"divergent", a.divergent()}}) {
                        xml.child(e, (String) n[0], n[1].toString());
                    }
                    if (a.lastPullAt() != null) {
                        xml.child(e, "lastPullAt", a.lastPullAt().toString());
                    }
                    if (a.lastPushAt() != null) {
                        xml.child(e, "lastPushAt", a.lastPushAt().toString());
                    }
                    xml.child(e, "lagP50Ms", Long.toString(a.lag().p50()));
                    xml.child(e, "lagP99Ms", Long.toString(a.lag().p99()));
                    xml.child(e, "lagMaxMs", Long.toString(a.lag().max()));
                }
            }
            case "conflicts" -> {
                Integer limit = SoapXml.integer(request, "limit");
                String before = SoapXml.text(request, "before");
                String state = SoapXml.text(request, "state");
                for (ConflictEntry entry : sync.conflicts(state, before == null ? 0 : parseLong(before), limit == null ? 100 : limit)) {
                    RecordedEvent e = entry.event();
                    ConflictResolved c = entry.conflict();
                    OMElement o = xml.child(response, "conflict", null);
                    xml.child(o, "entityId", e.entityId().toString());
                    xml.child(o, "position", Long.toString(e.position()));
                    xml.child(o, "at", e.recordedAt().toString());
                    xml.child(o, "field", c.field().jsonName());
                    for (var v : new Object[][] {{"base", c.base()}, {"idiomValue", c.idiomValue()}, {"remoteValue", c.remoteValue()}, {"winner", c.winner()}}) {
                        if (v[1] != null) {
                            xml.child(o, (String) v[0], c.field().toText(v[1]));
                        }
                    }
                    xml.child(o, "policy", c.policy());
                    xml.child(o, "tool", c.tool());
                    if (c.account() != null) {
                        xml.child(o, "account", c.account());
                    }
                    xml.child(o, "id", entry.id().toString());
                    if (entry.title() != null) {
                        xml.child(o, "title", entry.title());
                    }
                    xml.child(o, "state", entry.state());
                }
            }
            case "suggestedDuplicates" -> {
                Integer limit = SoapXml.integer(request, "limit");
                for (dev.idiom.services.app.EntityLifecycle.DuplicatePair p : lifecycle.duplicates(limit == null ? 100 : limit, caller)) {
                    OMElement o = xml.child(response, "duplicate", null);
                    xml.child(o, "evidence", p.evidence());
                    xml.child(o, "key", p.key());
                    for (dev.idiom.events.DigitalEntity de : List.of(p.first(), p.second())) {
                        OMElement e = xml.child(o, "entity", null);
                        xml.child(e, "id", de.id().toString());
                        xml.child(e, "version", Integer.toString(de.version()));
                        if (de.metadata().title() != null) {
                            xml.child(e, "title", de.metadata().title());
                        }
                    }
                }
            }
            case "dismissDuplicate" -> {
                lifecycle.dismissDuplicate(entity(request, "first"), entity(request, "second"), source);
                xml.child(response, "dismissed", "true");
            }
            case "parkedWrites" -> {
                Integer limit = SoapXml.integer(request, "limit");
                for (dev.idiom.consistency.report.ParkedWrite w : sync.parked(SoapXml.required(request, "tool"), limit == null ? 100 : limit)) {
                    OMElement o = xml.child(response, "parked", null);
                    xml.child(o, "entityId", w.entityId().toString());
                    if (w.title() != null) {
                        xml.child(o, "title", w.title());
                    }
                    if (w.remoteId() != null) {
                        xml.child(o, "remoteId", w.remoteId());
                    }
                    if (w.reason() != null) {
                        xml.child(o, "reason", w.reason());
                    }
                    xml.child(o, "attempts", Integer.toString(w.attempts()));
                }
            }
            case "resolveConflict" -> {
                String take = SoapXml.text(request, "take");
                String value = SoapXml.text(request, "value");
                xml.entity(response, sync.resolveConflictAsText(id(request), take, value, source));
            }
            default -> throw new InvalidValueException("unknown operation " + operation);
        }
        return response;
    }

    /** An HTTP request header, by name in any case. */
    private static boolean malformedXml(Throwable e) {
        for (Throwable c = e; c != null; c = c.getCause()) {
            if (c instanceof org.apache.axiom.om.OMException || c instanceof javax.xml.stream.XMLStreamException
                    || c.getClass().getName().startsWith("com.ctc.wstx.exc.")) {
                return true;
            }
        }
        return false;
    }

    private static String header(MessageContext in, String name) {
        if (in.getProperty(MessageContext.TRANSPORT_HEADERS) instanceof Map<?, ?> headers) {
            for (var e : headers.entrySet()) {
                if (name.equalsIgnoreCase(String.valueOf(e.getKey()))) {
                    return String.valueOf(e.getValue());
                }
            }
        }
        return null;
    }

    private static long parseLong(String s) {
        try {
            return Long.parseLong(s.strip());
        } catch (NumberFormatException e) {
            throw new InvalidValueException("<before> must be a position (a whole number), got '" + s + "'");
        }
    }

    private static OMElement firstChild(OMElement parent, String name) {
        return parent.getFirstChildWithName(new QName(SoapXml.NS, name));
    }

    /** The entity id in the element {@code name}. */
    private static UUID entity(OMElement request, String name) {
        String id = SoapXml.required(request, name);
        try {
            return UUID.fromString(id);
        } catch (IllegalArgumentException e) {
            throw new InvalidValueException("'" + id + "' is not an entity id (a UUID)");
        }
    }

    private static UUID id(OMElement request) {
        String id = SoapXml.required(request, "id");
        try {
            return UUID.fromString(id);
        } catch (IllegalArgumentException e) {
            throw new InvalidValueException("'" + id + "' is not an entity id (a UUID)");
        }
    }

    private AxisFault fault(RuntimeException e, HttpServletRequest http) {
        // the envelope is parsed as it is read: XML that breaks off or is not well-formed shows up here
        ErrorCode.Failure f = malformedXml(e)
                ? new ErrorCode.Failure(ErrorCode.INVALID, "the request is not well-formed XML: " + SoapXml.rootMessage(e))
                : ErrorCode.of(e);
        if (f.code() == ErrorCode.UNAVAILABLE) {
            LOG.log(Level.WARNING, "event store failure", e);
        } else if (f.code() == ErrorCode.INTERNAL) {
            LOG.log(Level.SEVERE, "unexpected failure in SOAP operation", e);
        }
        if (http != null) {
            http.setAttribute(ServiceTime.FAULT_STATUS, f.code().status());
        }
        String code = f.code().code();
        AxisFault fault = new AxisFault(f.message(), new QName(SoapXml.NS, code, "de"));
        fault.setDetail(SoapXml.faultDetail(code, f.message()));
        return fault;
    }
}
