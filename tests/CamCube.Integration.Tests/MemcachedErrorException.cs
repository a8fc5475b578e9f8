namespace CamCube.Integration.Tests;

/// <summary>A memcached front-end answered a command with an error line (ERROR, CLIENT_ERROR or SERVER_ERROR).</summary>
internal sealed class MemcachedErrorException : Exception
{
    /// <summary>Creates the exception.</summary>
    public MemcachedErrorException()
    {
    }

    /// <summary>Creates the exception with what was asked and answered.</summary>
    public MemcachedErrorException(string message)
        : base(message)
    {
    }

    /// <summary>Creates the exception with what was asked and answered, and its cause.</summary>
    public MemcachedErrorException(string message, Exception innerException)
        : base(message, innerException)
    {
    }
}
