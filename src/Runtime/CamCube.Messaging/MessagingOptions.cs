using CamCube.Services.Reliable;

namespace CamCube.Messaging;

/// <summary>Settings of a <see cref="MessagingServiceBase"/>.</summary>
public sealed record MessagingOptions
{
    /// <summary>Gets the options of a best-effort service (the default).</summary>
    public static MessagingOptions BestEffort { get; } = new();

    /// <summary>Gets the options of a service on the reliable transport with its default settings.</summary>
    public static MessagingOptions Reliable { get; } = new() { Delivery = MessageDelivery.Reliable };

    /// <summary>Gets how the service's requests, replies and one-way messages travel (default <see cref="MessageDelivery.BestEffort"/>); both ends of a service use the same.</summary>
    public MessageDelivery Delivery { get; init; }

    /// <summary>Gets the reliable transport's settings in <see cref="MessageDelivery.Reliable"/> mode; its defaults if null.</summary>
    public ReliableOptions? Transport { get; init; }
}
